import { sql, type Kysely } from "kysely";

// Email verification codes and password-reset tokens (docs/decisions/017): one live code per
// purpose and address, in the database every node shares (they lived in Redis or in one node's
// memory). Only a keyed hash of the code is stored; sent_at carries the resend cooldown and
// attempts the count of wrong guesses.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table verification_codes (
      purpose text not null,
      email text not null,
      code_hash text not null,
      sent_at timestamptz not null default now(),
      expires_at timestamptz not null,
      attempts integer not null default 0,
      primary key (purpose, email)
    );
    create index verification_codes_expires_at_idx on verification_codes (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists verification_codes`.execute(db);
}
