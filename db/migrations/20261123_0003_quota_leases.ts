import { sql, type Kysely } from "kysely";

// Quota leases (docs/decisions/006): a node moves a slice of a payer's balance into a
// lease and reserves requests against it in memory, so the relay's hot path makes no database
// round trip. `users.leased` / `tokens.leased` is the part of `quota` / `remain_quota` that
// leases hold: the balance itself stays the payer's whole balance (what every page shows and
// every admin edit sets), and only `quota - leased` can be leased again. A lease row holds what
// its node may still spend; settled charges shrink it, the rest goes back when it is returned.
//
// billing_journals: how far each node's local settlement journal has been written to the
// database, so a crash's unwritten settlements are replayed exactly once at the next start.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table users add column leased bigint not null default 0;
    alter table tokens add column leased bigint not null default 0;
    create table quota_leases (
      id bigserial primary key,
      node_id text not null,
      user_id integer not null,
      token_id integer not null default 0,
      token_limited boolean not null default false,
      amount bigint not null,
      created_at timestamptz not null default now()
    );
    create unique index quota_leases_payer_idx on quota_leases (node_id, user_id, token_id);
    create table billing_journals (
      node_id text primary key,
      applied_seq bigint not null default 0,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table billing_journals;
    drop table quota_leases;
    alter table tokens drop column leased;
    alter table users drop column leased;
  `.execute(db);
}
