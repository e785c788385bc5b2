import { sql, type Kysely } from "kysely";

// Hourly usage rollups (docs/decisions/023). quota_data already has one row per (user, model,
// hour); this adds the progress marker the rollup job keeps, and the index a user's own
// dashboard reads by (user, time range).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table usage_rollup_progress (
      id integer primary key check (id = 1),
      rolled_until bigint not null,
      last_run_at bigint not null
    );
    create index quota_data_user_created_idx on quota_data (user_id, created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index quota_data_user_created_idx;
    drop table usage_rollup_progress;
  `.execute(db);
}
