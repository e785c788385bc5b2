import { sql, type Kysely } from "kysely";

// Limits (docs/decisions/041). A token's requests and tokens per minute (0 = none); a channel's
// keys: `channel_info` is the reference's JSON for a channel holding several keys (one per line
// of its key: random or polling use, a status per key), and each key's cap on concurrent
// requests and on requests per minute (0 = none). Columns with constant defaults: PostgreSQL adds
// them without rewriting the table, so the lock is brief on a busy database.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table tokens add column rpm_limit integer not null default 0;
    alter table tokens add column tpm_limit integer not null default 0;
    alter table channels add column channel_info text not null default '';
    alter table channels add column key_max_concurrency integer not null default 0;
    alter table channels add column key_rpm_limit integer not null default 0;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table tokens drop column rpm_limit;
    alter table tokens drop column tpm_limit;
    alter table channels drop column channel_info;
    alter table channels drop column key_max_concurrency;
    alter table channels drop column key_rpm_limit;
  `.execute(db);
}
