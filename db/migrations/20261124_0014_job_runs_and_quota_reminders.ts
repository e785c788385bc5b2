import { sql, type Kysely } from "kysely";

// Schedules (docs/decisions/029): one row per recurring job with its last run, outcome and the
// progress of a long run (test all, refresh all balances), written by the job runner on every
// node and read by the channel page; and the quota reminder's arming flag on users (armed while
// the balance is at or above QuotaRemindThreshold, disarmed when the reminder mail goes out).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table job_runs (
      name text primary key,
      last_started_at bigint,
      last_finished_at bigint,
      last_outcome text not null default '',
      last_message text not null default '',
      running boolean not null default false,
      progress_total integer not null default 0,
      progress_done integer not null default 0,
      progress_detail text not null default ''
    );
    alter table users add column quota_remind_armed boolean not null default false;
    create index users_quota_remind_armed_idx on users (quota) where quota_remind_armed;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index users_quota_remind_armed_idx;
    alter table users drop column quota_remind_armed;
    drop table job_runs;
  `.execute(db);
}
