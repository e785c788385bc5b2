/**
 * What an import found and did (or, in a dry run, would do), table by table. Every row that does
 * not come across unchanged is listed with its id and why: an operator reads this before `--apply`.
 *
 * - changed: written, but a field was altered (a type mapped, a status carried differently…)
 * - clamped: written with a number brought into range (a negative remaining quota…)
 * - dropped: not written, nothing lost that Switchyard can use (an orphan, a duplicate…)
 * - refused: not written because it cannot be made valid (the reason says what to fix)
 * - present: not written because an earlier `--apply` already did (a second run adds nothing)
 */
export type RowOutcome = "changed" | "clamped" | "dropped" | "refused" | "present";

export type RowNote = { id: number | string; outcome: RowOutcome; reason: string };

export type TableReport = {
  table: string;
  found: number;
  /** Rows written (with --apply) or that would be written (dry run). */
  written: number;
  notes: RowNote[];
  /** Lines about the table as a whole (skipped, unknown option keys…). */
  remarks: string[];
};

const OUTCOMES: RowOutcome[] = ["changed", "clamped", "dropped", "refused", "present"];

/** A table's notes beyond this many are counted, not listed (a log table can have millions). */
const LISTED_NOTES_PER_OUTCOME = 200;

export class ImportReport {
  readonly tables = new Map<string, TableReport>();
  readonly header: string[] = [];
  private hiddenNotes = new Map<string, number>();

  constructor(readonly apply: boolean) {}

  table(name: string): TableReport {
    let entry = this.tables.get(name);
    if (!entry) {
      entry = { table: name, found: 0, written: 0, notes: [], remarks: [] };
      this.tables.set(name, entry);
    }
    return entry;
  }

  found(table: string, rows = 1): void {
    this.table(table).found += rows;
  }

  written(table: string, rows = 1): void {
    this.table(table).written += rows;
  }

  note(table: string, id: number | string, outcome: RowOutcome, reason: string): void {
    const entry = this.table(table);
    const listed = entry.notes.filter((n) => n.outcome === outcome).length;
    if (listed >= LISTED_NOTES_PER_OUTCOME) {
      const key = `${table}\0${outcome}`;
      this.hiddenNotes.set(key, (this.hiddenNotes.get(key) ?? 0) + 1);
      return;
    }
    entry.notes.push({ id, outcome, reason });
  }

  remark(table: string, line: string): void {
    this.table(table).remarks.push(line);
  }

  count(table: string, outcome: RowOutcome): number {
    const entry = this.tables.get(table);
    const listed = entry?.notes.filter((n) => n.outcome === outcome).length ?? 0;
    return listed + (this.hiddenNotes.get(`${table}\0${outcome}`) ?? 0);
  }

  /** The report as the terminal shows it. */
  format(): string {
    const verb = this.apply ? "written" : "would write";
    const lines = [...this.header];
    for (const entry of this.tables.values()) {
      const counts = OUTCOMES.map((o) => [o, this.count(entry.table, o)] as const)
        .filter(([, n]) => n > 0)
        .map(([o, n]) => `${o} ${n}`);
      lines.push(
        "",
        `== ${entry.table}: found ${entry.found}, ${verb} ${entry.written}${counts.length ? `, ${counts.join(", ")}` : ""}`,
      );
      for (const remark of entry.remarks) lines.push(`   ${remark}`);
      for (const outcome of OUTCOMES) {
        for (const note of entry.notes.filter((n) => n.outcome === outcome))
          lines.push(`   ${outcome} #${note.id}: ${note.reason}`);
        const hidden = this.hiddenNotes.get(`${entry.table}\0${outcome}`);
        if (hidden) lines.push(`   … and ${hidden} more ${outcome}`);
      }
    }
    lines.push("", this.apply ? "Applied." : "Dry run: nothing was written. Run again with --apply to import.");
    return lines.join("\n");
  }
}
