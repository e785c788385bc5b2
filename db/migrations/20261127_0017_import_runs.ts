import { sql, type Kysely } from "kysely";

// `npm run import` (decision 042): one row per run that wrote into this database. The import
// refuses a target that already has users unless an earlier import made them, so a second
// `--apply` (or one resumed after a stop) goes on while a deployment already in use is never
// merged into.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table import_runs (
      id serial primary key,
      source text not null,
      fork text not null,
      started_at timestamptz not null default now(),
      finished_at timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table import_runs`.execute(db);
}
