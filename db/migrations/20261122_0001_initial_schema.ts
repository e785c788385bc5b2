import { sql, type Kysely } from "kysely";

// The whole schema of the product (docs/product.md). Times on the wire are unix seconds (the reference's
// shapes), so they are stored as bigint seconds; quota and money are bigint quota units.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table users (
      id serial primary key,
      username text not null,
      password_hash text not null,
      display_name text not null default '',
      role integer not null default 1,
      status integer not null default 1,
      email text not null default '',
      github_id text not null default '',
      wechat_id text not null default '',
      telegram_id text not null default '',
      access_token_hash text,
      quota bigint not null default 0 check (quota >= 0),
      used_quota bigint not null default 0,
      request_count bigint not null default 0,
      "group" text not null default 'default',
      aff_code text,
      aff_count integer not null default 0,
      aff_quota bigint not null default 0,
      aff_history bigint not null default 0,
      inviter_id integer not null default 0,
      created_time bigint not null default extract(epoch from now())::bigint,
      deleted_at timestamptz
    );
    create unique index users_username_key on users (username);
    create unique index users_access_token_hash_key on users (access_token_hash) where access_token_hash is not null;
    create unique index users_aff_code_key on users (aff_code) where aff_code is not null;
    create index users_email_idx on users (lower(email)) where email <> '';
    create index users_github_id_idx on users (github_id) where github_id <> '';
    create index users_wechat_id_idx on users (wechat_id) where wechat_id <> '';
    create index users_telegram_id_idx on users (telegram_id) where telegram_id <> '';
    create index users_display_name_idx on users (display_name);
    create index users_group_idx on users ("group");
    create index users_inviter_id_idx on users (inviter_id) where inviter_id <> 0;

    create table sessions (
      id text primary key,
      user_id integer not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ip text not null default '',
      user_agent text not null default ''
    );
    create index sessions_user_id_idx on sessions (user_id);
    create index sessions_expires_at_idx on sessions (expires_at);

    create table options (
      key text primary key,
      value text not null
    );

    create table tokens (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      key_hash text not null,
      key_encrypted text not null,
      key_hint text not null default '',
      status integer not null default 1,
      name text not null default '',
      created_time bigint not null default extract(epoch from now())::bigint,
      accessed_time bigint not null default 0,
      expired_time bigint not null default -1,
      remain_quota bigint not null default 0 check (remain_quota >= 0),
      unlimited_quota boolean not null default false,
      model_limits_enabled boolean not null default false,
      model_limits text not null default '',
      allow_ips text not null default '',
      used_quota bigint not null default 0,
      "group" text not null default '',
      deleted_at timestamptz
    );
    create unique index tokens_key_hash_key on tokens (key_hash);
    create index tokens_user_id_idx on tokens (user_id, id desc) where deleted_at is null;
    create index tokens_name_idx on tokens (user_id, name);

    create table channels (
      id serial primary key,
      type integer not null default 0,
      key_encrypted text not null,
      openai_organization text,
      test_model text,
      status integer not null default 1,
      name text not null default '',
      weight integer not null default 0 check (weight >= 0),
      created_time bigint not null default extract(epoch from now())::bigint,
      test_time bigint not null default 0,
      response_time integer not null default 0,
      base_url text not null default '',
      other text not null default '',
      balance double precision not null default 0,
      balance_updated_time bigint not null default 0,
      models text not null default '',
      "group" text not null default 'default',
      used_quota bigint not null default 0,
      model_mapping text not null default '',
      status_code_mapping text not null default '',
      priority bigint not null default 0 check (priority >= -999),
      auto_ban integer not null default 1,
      other_info text not null default '',
      max_input_tokens integer not null default 0
    );
    create index channels_name_idx on channels (name);
    create index channels_status_idx on channels (status);
    create index channels_priority_idx on channels (priority desc, id desc);

    -- The routing index: one row per group x model x channel, written with the channel.
    create table abilities (
      "group" text not null,
      model text not null,
      channel_id integer not null references channels(id) on delete cascade,
      enabled boolean not null default true,
      priority bigint not null default 0,
      weight integer not null default 0,
      primary key ("group", model, channel_id)
    );
    create index abilities_channel_id_idx on abilities (channel_id);
    create index abilities_route_idx on abilities ("group", model, enabled, priority desc);

    create table redemptions (
      id serial primary key,
      user_id integer not null default 0,
      key text not null,
      status integer not null default 1,
      name text not null default '',
      quota bigint not null default 100000 check (quota >= 0),
      created_time bigint not null default extract(epoch from now())::bigint,
      redeemed_time bigint not null default 0,
      used_user_id integer not null default 0,
      deleted_at timestamptz
    );
    create unique index redemptions_key_key on redemptions (key);
    create index redemptions_name_idx on redemptions (name);

    -- Partitioned by month of created_at (unix seconds) so retention is a partition drop.
    create table logs (
      id bigint generated by default as identity,
      created_at bigint not null,
      type integer not null default 0,
      content text not null default '',
      user_id integer not null default 0,
      username text not null default '',
      token_name text not null default '',
      model_name text not null default '',
      quota bigint not null default 0,
      prompt_tokens integer not null default 0,
      completion_tokens integer not null default 0,
      use_time integer not null default 0,
      is_stream boolean not null default false,
      channel_id integer not null default 0,
      token_id integer not null default 0,
      "group" text not null default '',
      other text not null default '',
      primary key (id, created_at)
    ) partition by range (created_at);
    create table logs_default partition of logs default;
    create index logs_created_at_type_idx on logs (created_at, type);
    create index logs_user_created_idx on logs (user_id, created_at);
    create index logs_username_model_idx on logs (model_name, username);
    create index logs_token_name_idx on logs (token_name);
    create index logs_channel_id_idx on logs (channel_id);
    create index logs_token_id_idx on logs (token_id);

    create table midjourneys (
      id serial primary key,
      code integer not null default 0,
      user_id integer not null default 0,
      action text not null default '',
      mj_id text not null default '',
      prompt text not null default '',
      prompt_en text not null default '',
      description text not null default '',
      state text not null default '',
      submit_time bigint not null default 0,
      start_time bigint not null default 0,
      finish_time bigint not null default 0,
      image_url text not null default '',
      status text not null default '',
      progress text not null default '',
      fail_reason text not null default '',
      channel_id integer not null default 0,
      quota bigint not null default 0,
      buttons text not null default '',
      properties text not null default ''
    );
    create index midjourneys_user_id_idx on midjourneys (user_id, submit_time);
    create index midjourneys_mj_id_idx on midjourneys (mj_id);
    create index midjourneys_channel_id_idx on midjourneys (channel_id);
    create index midjourneys_submit_time_idx on midjourneys (submit_time);
    create index midjourneys_unfinished_idx on midjourneys (status) where progress <> '100%';

    create table tasks (
      id bigserial primary key,
      created_at bigint not null default extract(epoch from now())::bigint,
      updated_at bigint not null default extract(epoch from now())::bigint,
      task_id text not null default '',
      platform text not null default '',
      user_id integer not null default 0,
      channel_id integer not null default 0,
      quota bigint not null default 0,
      action text not null default '',
      status text not null default '',
      fail_reason text not null default '',
      submit_time bigint not null default 0,
      start_time bigint not null default 0,
      finish_time bigint not null default 0,
      progress text not null default '',
      properties jsonb,
      data jsonb
    );
    create index tasks_user_id_idx on tasks (user_id, submit_time);
    create index tasks_task_id_idx on tasks (task_id);
    create index tasks_channel_id_idx on tasks (channel_id);
    create index tasks_submit_time_idx on tasks (submit_time);
    create index tasks_unfinished_idx on tasks (platform, status) where progress <> '100%';

    -- trade_no is unique so a payment notification can only ever credit once (the reference has no index).
    create table top_ups (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      amount bigint not null default 0,
      money double precision not null default 0,
      trade_no text not null,
      create_time bigint not null default extract(epoch from now())::bigint,
      status text not null default 'pending'
    );
    create unique index top_ups_trade_no_key on top_ups (trade_no);
    create index top_ups_user_id_idx on top_ups (user_id);

    -- Hourly dashboard rollups, upserted on the unique bucket.
    create table quota_data (
      id serial primary key,
      user_id integer not null default 0,
      username text not null default '',
      model_name text not null default '',
      created_at bigint not null,
      token_used bigint not null default 0,
      count bigint not null default 0,
      quota bigint not null default 0
    );
    create unique index quota_data_bucket_key on quota_data (user_id, model_name, created_at);
    create index quota_data_created_at_idx on quota_data (created_at);
    create index quota_data_model_user_idx on quota_data (model_name, username);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists quota_data, top_ups, tasks, midjourneys, logs, redemptions, abilities, channels, tokens, options, sessions, users cascade`.execute(
    db,
  );
}
