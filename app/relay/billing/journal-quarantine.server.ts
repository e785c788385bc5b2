import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { journalDir } from "./settle-journal.server";

/**
 * Settlements that cannot be written — a journal line that fails the settlement schema or does
 * not parse, or one the database keeps refusing — are moved here instead of blocking a start or
 * every later charge behind them. Each is one JSON line in
 * `DATA_DIR/journal/quarantine/<node>.jsonl` carrying the raw journal line untouched, where it came
 * from and why it was set aside, so an operator can correct it and put it right by hand. Nothing
 * in it was charged: charge and usage log stay together.
 *
 * The server log says so when a line is added, and admins see the count on the console.
 */
export function quarantineDir(): string {
  return join(journalDir(), "quarantine");
}

export type QuarantinedLine = { nodeId: string; source: string; reason: string; line: string };

export function quarantine(entry: QuarantinedLine): void {
  const dir = quarantineDir();
  const file = join(dir, `${entry.nodeId.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`);
  try {
    mkdirSync(dir, { recursive: true });
    appendFileSync(
      file,
      `${JSON.stringify({ quarantined_at: new Date().toISOString(), node: entry.nodeId, source: entry.source, reason: entry.reason, line: entry.line })}\n`,
    );
  } catch (error) {
    // The disk refuses: the line is at least in the server log, whole.
    console.error(
      `[billing] could not write the quarantine file ${file} (${(error as Error).message}); the settlement was: ${entry.line}`,
    );
  }
  console.error(
    `[billing] a settlement of ${entry.nodeId} was quarantined in ${file} (${entry.reason}); it was not charged — correct it and write it by hand`,
  );
  cached = undefined;
}

export type QuarantineStatus = { lines: number; dir: string; files: string[] };

let cached: { at: number; status: QuarantineStatus } | undefined;
const CACHE_MS = 5_000;

/** How many settlements wait in the quarantine and where (for /healthz and the console's notice). */
export function quarantineStatus(): QuarantineStatus {
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.status;
  const dir = quarantineDir();
  const status: QuarantineStatus = { lines: 0, dir, files: [] };
  try {
    if (existsSync(dir)) {
      for (const name of readdirSync(dir)
        .filter((n) => n.endsWith(".jsonl"))
        .sort()) {
        const path = join(dir, name);
        const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).length;
        if (lines === 0) continue;
        status.lines += lines;
        status.files.push(path);
      }
    }
  } catch (error) {
    console.error(`[billing] could not read the quarantine in ${dir}:`, (error as Error).message);
  }
  cached = { at: Date.now(), status };
  return status;
}
