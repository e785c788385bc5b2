import { sql, type Kysely } from "kysely";

// Hourly usage rollups (docs/decisions/023). quota_data already has one row per (user, model,
// hour); this adds the same per (model, hour) over all users (what an admin's dashboard and the
// all-users statistics read: a month is hundreds of rows, not millions), the progress marker
// the rollup job keeps, and the index a user's own dashboard reads by (user, time range).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table usage_rollup_progress (
      id integer primary key check (id = 1),
      rolled_until bigint not null,
      last_run_at bigint not null
    );
    create index quota_data_user_created_idx on quota_data (user_id, created_at);
    create table quota_data_models (
      model_name text not null,
      created_at bigint not null,
      token_used bigint not null default 0,
      count bigint not null default 0,
      quota bigint not null default 0,
      primary key (created_at, model_name)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table quota_data_models;
    drop index quota_data_user_created_idx;
    drop table usage_rollup_progress;
  `.execute(db);
}
