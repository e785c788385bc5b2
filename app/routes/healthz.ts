import { bootApp } from "~/utils/boot.server";
import { checkDatabase, checkJournal, checkRedis } from "~/utils/health.server";
import { journalDir } from "~/relay/billing/settle-journal.server";

/**
 * Journal lines that could not be read and were set aside. Until the journal's quarantine lands
 * this is 0; the lead wires it to the settle-journal's counter here.
 */
function quarantinedJournalLines(): number {
  return 0;
}

/**
 * Readiness and what each dependency is doing: `{ok, db, redis, journal}`. 503 when the database
 * is unreachable (this node cannot serve); 200 with redis "degraded" while only Redis is away
 * (relaying works; changes reach other nodes late, rate limits count per node).
 */
export async function loader() {
  const db = await checkDatabase(bootApp());
  const redis = checkRedis();
  const journal = checkJournal(journalDir(), quarantinedJournalLines());
  const ok = db.ok && redis.status !== "degraded" && journal.ok;
  return Response.json({ ok, db, redis, journal }, { status: db.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
