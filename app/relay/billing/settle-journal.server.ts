import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { env } from "~/utils/env.server";
import type { Settlement } from "./lease-store.server";
import { InvalidSettlementError, settlementProblem, settlementSchema } from "./settlement-schema";

/**
 * The local write-ahead journal of settlements. A request's charge is appended here (one write
 * system call, no database round trip) before its reply is delivered, and written to the
 * database behind the reply in batches. If the process dies before a batch is written, the
 * next start on this host reads the journal and writes what is missing — exactly once, because
 * each batch advances the node's `billing_journals.applied_seq` in the same statement.
 *
 * A process crash (OOM, SIGKILL, a bug) loses nothing: the kernel still holds what was
 * written. Keep DATA_DIR on a persistent volume so the journal outlives a replaced container;
 * a machine that loses power can lose its last few milliseconds of unwritten settlements.
 *
 * Files: `<dir>/<node>.<n>.jsonl`, a header line naming the node, then one JSON line per
 * settlement. A file is started afresh past ROTATE_BYTES and deleted once all of it is written.
 */
const ROTATE_BYTES = 4 * 1024 * 1024;

export function journalDir(): string {
  return join(env.DATA_DIR, "journal");
}

type OpenFile = { fd: number; path: string; lastSeq: number; size: number };

export class SettleJournal {
  private seq = 0;
  private part = 0;
  private current: OpenFile | undefined;
  private readonly full: OpenFile[] = [];

  constructor(private readonly nodeId: string) {}

  /**
   * Appends one settlement, numbering it (the entry becomes the journaled settlement), and
   * returns it with its JSON line. The line reaches the file at the next writePending(): the
   * lines of one turn of the event loop go in one write. A settlement that would not replay
   * (settlement-schema) is refused with InvalidSettlementError before anything is recorded.
   */
  append(entry: Omit<Settlement, "seq">): { settlement: Settlement; line: string } {
    const problem = settlementProblem({ ...entry, seq: this.seq + 1 });
    if (problem) throw new InvalidSettlementError(problem);
    const settlement: Settlement = Object.assign(entry, { seq: ++this.seq });
    const line = JSON.stringify(settlement);
    this.pending.push(line);
    return { settlement, line };
  }

  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /**
   * Writes the pending lines. Never throws: if the disk refuses (full, read-only), the
   * settlements are still written to the database behind the replies, only without crash
   * protection, and the failure is reported.
   */
  writePending(): void {
    if (this.pending.length === 0) return;
    const text = `${this.pending.join("\n")}\n`;
    this.pending = [];
    try {
      const file = this.fileForWrite();
      file.size += writeSync(file.fd, text);
      file.lastSeq = this.seq;
    } catch (error) {
      if (Date.now() - this.lastComplaint > 10_000) {
        this.lastComplaint = Date.now();
        console.error(
          `[billing] the settlement journal in ${journalDir()} cannot be written (${(error as Error).message}); charges go to the database unprotected against a crash`,
        );
      }
    }
  }

  private pending: string[] = [];
  private lastComplaint = 0;

  /** Everything up to `seq` is in the database: files wholly before it are deleted. */
  applied(seq: number): void {
    while (this.full.length > 0 && this.full[0]!.lastSeq <= seq) {
      const done = this.full.shift()!;
      closeSync(done.fd);
      rmSync(done.path, { force: true });
    }
  }

  /** At a clean stop, with everything written: nothing is left to replay. */
  close(): void {
    for (const file of [...this.full, ...(this.current ? [this.current] : [])]) {
      closeSync(file.fd);
      rmSync(file.path, { force: true });
    }
    this.full.length = 0;
    this.current = undefined;
  }

  private fileForWrite(): OpenFile {
    if (this.current && this.current.size < ROTATE_BYTES) return this.current;
    if (this.current) this.full.push(this.current);
    mkdirSync(journalDir(), { recursive: true });
    const path = join(journalDir(), `${safeName(this.nodeId)}.${this.part++}.jsonl`);
    const fd = openSync(path, "a");
    const header = JSON.stringify({ node: this.nodeId }) + "\n";
    writeSync(fd, header);
    this.current = { fd, path, lastSeq: this.seq, size: header.length };
    return this.current;
  }
}

function safeName(nodeId: string): string {
  return nodeId.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** A journal line that would not replay: kept by crash recovery in the quarantine, never retried at start. */
export type RejectedLine = { file: string; line: string; reason: string };

export type LeftJournal = { nodeId: string; files: string[]; settlements: Settlement[]; rejected: RejectedLine[] };

/**
 * Journals of other processes found on this host, oldest part first per node: each line read
 * and checked against the settlement schema. The caller decides what to do with them (only a
 * stopped process's journal is replayed, and only then are its rejected lines quarantined: a
 * live one may be in the middle of a write).
 */
export function journalsLeftBy(isOther: (nodeId: string) => boolean): LeftJournal[] {
  const dir = journalDir();
  if (!existsSync(dir)) return [];
  const byNode = new Map<string, LeftJournal>();
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort((a, b) => partOf(a) - partOf(b));
  for (const name of files) {
    const path = join(dir, name);
    const lines = readFileSync(path, "utf8").split("\n");
    let nodeId: string | undefined;
    try {
      nodeId = (JSON.parse(lines[0] ?? "") as { node?: string }).node;
    } catch {
      nodeId = undefined;
    }
    if (!nodeId || !isOther(nodeId)) continue;
    const journal = byNode.get(nodeId) ?? { nodeId, files: [], settlements: [], rejected: [] };
    byNode.set(nodeId, journal);
    journal.files.push(path);
    const last = lines.length - 1;
    for (const [index, line] of lines.entries()) {
      if (index === 0 || !line) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        // The file's unterminated last line is a write the crash cut short: its reply was never
        // delivered, so there is nothing to keep. Anything else unreadable is kept apart.
        if (index !== last)
          journal.rejected.push({ file: path, line, reason: `not JSON (${(error as Error).message})` });
        continue;
      }
      const checked = settlementSchema.safeParse(value);
      if (checked.success) journal.settlements.push(checked.data);
      else journal.rejected.push({ file: path, line, reason: settlementProblem(value) ?? "invalid settlement" });
    }
  }
  for (const journal of byNode.values()) journal.settlements.sort((a, b) => a.seq - b.seq);
  return [...byNode.values()];
}

function partOf(name: string): number {
  const match = /\.(\d+)\.jsonl$/.exec(name);
  return match ? Number(match[1]) : 0;
}
