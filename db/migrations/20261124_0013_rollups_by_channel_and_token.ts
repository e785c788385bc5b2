import { sql, type Kysely } from "kysely";

// Hourly rollups by channel and by token (docs/decisions/024): the log stat line filtered by a
// channel or a token read these instead of summing hundreds of thousands of log rows. Both start
// empty, so the rollup progress is reset: the next runs recompute every hour from the first log
// (a month per run), and until the first run is done the stat sums the logs themselves.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table quota_data_channels (
      channel_id integer not null,
      model_name text not null,
      created_at bigint not null,
      token_used bigint not null default 0,
      count bigint not null default 0,
      quota bigint not null default 0,
      primary key (channel_id, created_at, model_name)
    );
    create table quota_data_tokens (
      user_id integer not null,
      username text not null default '',
      token_name text not null,
      model_name text not null,
      created_at bigint not null,
      token_used bigint not null default 0,
      count bigint not null default 0,
      quota bigint not null default 0,
      primary key (user_id, token_name, created_at, model_name)
    );
    create index quota_data_tokens_name_created_idx on quota_data_tokens (token_name, created_at);
    delete from usage_rollup_progress;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table quota_data_tokens, quota_data_channels`.execute(db);
}
