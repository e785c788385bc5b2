import type { Generated } from "kysely";

export interface OptionsTable {
  key: string;
  value: string;
}

/** A recurring job's last run and a long run's progress (migration 0014; times in unix ms). */
export interface JobRunsTable {
  name: string;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_outcome: Generated<string>;
  last_message: Generated<string>;
  running: Generated<boolean>;
  progress_total: Generated<number>;
  progress_done: Generated<number>;
  progress_detail: Generated<string>;
}

/** One row per `npm run import --apply` into this database (migration 0017, decision 042). */
export interface ImportRunsTable {
  id: Generated<number>;
  source: string;
  fork: string;
  started_at: Generated<Date>;
  finished_at: Date | null;
}
