import { sql, type Kysely } from "kysely";

// Logs at scale (docs/decisions/024). Every list filter gets an index that ends in
// (created_at, id), the list's order, so a page (and a keyset cursor) is an index range read
// instead of sorting every matching row. They replace the single-column ones, so the relay's
// insert maintains as many full indexes as before; the two partial ones only index the rare
// non-consumption rows (top-ups, management, system), which the relay never writes.
// Indexes on the partitioned parent are built on every partition.
//
// quota_data_models (migration 0011) sums quota_data over users: the admin's stat line without a
// user filter reads a few thousand rows for a month instead of one per user, model and hour. It
// is filled here from the rollups a database already has.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    drop index if exists logs_created_at_type_idx;
    drop index if exists logs_user_created_idx;
    drop index if exists logs_username_model_idx;
    drop index if exists logs_token_name_idx;
    drop index if exists logs_channel_id_idx;
    drop index if exists logs_token_id_idx;
    create index logs_created_id_idx on logs (created_at, id);
    create index logs_user_created_id_idx on logs (user_id, created_at, id);
    create index logs_username_created_id_idx on logs (username, created_at, id);
    create index logs_model_created_id_idx on logs (model_name, created_at, id);
    create index logs_token_name_created_id_idx on logs (token_name, created_at, id);
    create index logs_channel_created_id_idx on logs (channel_id, created_at, id);
    create index logs_token_id_created_id_idx on logs (token_id, created_at, id);
    create index logs_rare_type_idx on logs (type, created_at, id) where type <> 2;
    create index logs_user_rare_type_idx on logs (user_id, type, created_at, id) where type <> 2;

    create index quota_data_username_created_idx on quota_data (username, created_at);
    insert into quota_data_models (model_name, created_at, token_used, count, quota)
      select model_name, created_at, sum(token_used), sum(count), sum(quota) from quota_data group by model_name, created_at
      on conflict (created_at, model_name) do update
        set token_used = excluded.token_used, count = excluded.count, quota = excluded.quota;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index quota_data_username_created_idx;
    drop index logs_created_id_idx, logs_user_created_id_idx, logs_username_created_id_idx, logs_model_created_id_idx,
      logs_token_name_created_id_idx, logs_channel_created_id_idx, logs_token_id_created_id_idx, logs_rare_type_idx, logs_user_rare_type_idx;
    create index logs_created_at_type_idx on logs (created_at, type);
    create index logs_user_created_idx on logs (user_id, created_at);
    create index logs_username_model_idx on logs (model_name, username);
    create index logs_token_name_idx on logs (token_name);
    create index logs_channel_id_idx on logs (channel_id);
    create index logs_token_id_idx on logs (token_id);
  `.execute(db);
}
