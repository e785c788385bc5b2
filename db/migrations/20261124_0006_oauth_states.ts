import { sql, type Kysely } from "kysely";

// Third-party sign-in (docs/decisions/018).
// - oauth_states: the OAuth `state` values handed out, stored as hashes, each bound to the browser
//   that asked for it (its session, or a short-lived pre-login cookie) and usable once. Kept in the
//   database, not in one node's memory, so the callback may land on any node.
// - A GitHub, WeChat or Telegram identity belongs to one account at most: the plain indexes of the
//   initial schema become unique, so two concurrent binds or sign-ups of one identity cannot both
//   win. Deleted accounts keep theirs (their identity then signs in to nothing, as in the reference).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table oauth_states (
      state_hash text primary key,
      binding_hash text not null,
      aff_code text not null default '',
      expires_at timestamptz not null
    );
    create index oauth_states_expires_at_idx on oauth_states (expires_at);

    drop index users_github_id_idx;
    drop index users_wechat_id_idx;
    drop index users_telegram_id_idx;
    create unique index users_github_id_key on users (github_id) where github_id <> '';
    create unique index users_wechat_id_key on users (wechat_id) where wechat_id <> '';
    create unique index users_telegram_id_key on users (telegram_id) where telegram_id <> '';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index users_github_id_key;
    drop index users_wechat_id_key;
    drop index users_telegram_id_key;
    create index users_github_id_idx on users (github_id) where github_id <> '';
    create index users_wechat_id_idx on users (wechat_id) where wechat_id <> '';
    create index users_telegram_id_idx on users (telegram_id) where telegram_id <> '';
    drop table oauth_states;
  `.execute(db);
}
