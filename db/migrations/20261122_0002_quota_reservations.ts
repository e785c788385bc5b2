import { sql, type Kysely } from "kysely";

// A relay request's quota reservation lives here from the moment it is taken until the request
// is settled (in the same statement as the charge and its usage log). Rows left behind by a
// crash are refunded when that node starts again (node_id), or after the longest possible
// relay by any node, so a crash never keeps a user's quota.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table quota_reservations (
      id bigserial primary key,
      request_id text not null,
      node_id text not null default '',
      user_id integer not null,
      token_id integer not null default 0,
      token_unlimited boolean not null default false,
      amount bigint not null check (amount >= 0),
      created_at timestamptz not null default now()
    );
    create index quota_reservations_created_at_idx on quota_reservations (created_at);
    create index quota_reservations_node_id_idx on quota_reservations (node_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table quota_reservations`.execute(db);
}
