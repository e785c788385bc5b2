import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { onResubscribed, publish, subscribe } from "~/utils/redis.server";
import { DEFAULT_SYSTEM_NAME } from "./defs";
import { checkOptionPreconditions, OPTION_DEFS, getOptionDef, validateOptionValue, type OptionKey } from "./registry";
import { createOptionReader } from "./typed";
import type { Result } from "~/utils/result";

/**
 * Options live in memory for reads (every request consults them) and in the options table for
 * durability. A save is validated first, stored, then broadcast so every node updates its copy.
 */
const CHANNEL = "options";
const values = new Map<string, string>();
let loaded: Promise<void> | undefined;

export const options = createOptionReader((key) => values.get(key));

async function readStoredOptions(): Promise<void> {
  const db = await getDb();
  const rows = await db.selectFrom("options").select(["key", "value"]).execute();
  for (const row of rows) {
    if (!getOptionDef(row.key)) continue;
    // A value saved before its option had bounds (QuotaPerUnit=0, RetryTimes=1e9) would keep
    // the gateway broken after the upgrade: the default serves until the operator saves again.
    const checked = validateOptionValue(row.key, row.value);
    if (checked.ok) values.set(row.key, row.value);
    else
      console.warn(
        `[options] stored ${row.key} is refused (${checked.message}); using its default until it is saved again`,
      );
  }
}

export function loadOptions(): Promise<void> {
  loaded ??= (async () => {
    for (const def of OPTION_DEFS) values.set(def.key, def.default);
    await readStoredOptions();
    await subscribe(CHANNEL, (message) => {
      const { key, value } = JSON.parse(message) as { key: string; value: string };
      values.set(key, value);
    });
    // Saves on other nodes while Redis was away were missed: read them back.
    onResubscribed(
      () =>
        void readStoredOptions().catch((error: unknown) =>
          console.error("[options] reloading after a Redis outage failed:", (error as Error).message),
        ),
    );
  })();
  return loaded;
}

export function getOptionValue(key: OptionKey): string | undefined {
  return values.get(key);
}

/**
 * ServerAddress in effect: the operator's, else the default /api/status reports too. The default
 * names the port this server listens on (PORT), not the reference's fixed 3000: otherwise chat
 * links and payment callbacks of a server started on another port point nowhere until the
 * operator sets the option.
 */
export function effectiveServerAddress(): string {
  return options.string("ServerAddress") || defaultServerAddress();
}

function defaultServerAddress(): string {
  return `http://localhost:${env.PORT}`;
}

/**
 * SystemName in effect: an operator who clears the field gets the default back, not a blank
 * header and an empty <title>.
 */
export function effectiveSystemName(): string {
  return options.string("SystemName").trim() || DEFAULT_SYSTEM_NAME;
}

/**
 * Every option with its current value; secrets are left out (they are write-only). ServerAddress
 * is the effective one, as /api/status shows it: the reference's console read '' here and
 * http://localhost:3000 there.
 */
export function listPublicOptions(): { key: string; value: string }[] {
  return OPTION_DEFS.filter((d) => !d.secret).map((d) => ({
    key: d.key,
    value: d.key === "ServerAddress" ? effectiveServerAddress() : (values.get(d.key) ?? d.default),
  }));
}

export async function saveOption(key: string, raw: string): Promise<Result> {
  await loadOptions();
  const checked = validateOptionValue(key, raw);
  if (!checked.ok) return checked;
  const precondition = checkOptionPreconditions(key, checked.value, (k) => values.get(k) ?? "");
  if (precondition) return { ok: false, message: precondition };
  const db = await getDb();
  await db
    .insertInto("options")
    .values({ key, value: checked.value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: checked.value }))
    .execute();
  values.set(key, checked.value);
  await publish(CHANNEL, JSON.stringify({ key, value: checked.value }));
  return { ok: true };
}
