import { whenBooted } from "~/utils/boot-gate.server";
import { checkDatabase, checkJournal, checkRedis } from "~/utils/health.server";
import { journalDir } from "~/relay/billing/settle-journal.server";
import { quarantineStatus } from "~/relay/billing/journal-quarantine.server";
import { settlementBacklog } from "~/relay/billing/settlement-writer.server";

/**
 * Readiness and what each dependency is doing: `{ok, db, redis, journal}`. 503 when the database
 * is unreachable (this node cannot serve); 200 with redis "degraded" while only Redis is away
 * (relaying works; changes reach other nodes late, rate limits count per node).
 */
export async function loader() {
  const db = await checkDatabase(whenBooted());
  const redis = checkRedis();
  const journal = checkJournal(journalDir(), quarantineStatus().lines, settlementBacklog());
  const ok = db.ok && redis.status !== "degraded" && journal.ok;
  return Response.json(
    { ok, db, redis, journal },
    { status: db.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
