import { sql, type Kysely } from "kysely";

// Redemption codes (docs/decisions/020): the key is shown once, when the code is made, and the
// database keeps only its SHA-256 (for the redeem lookup) and a masked hint (for the list), so a
// leaked dump or backup hands out no spendable code. Keys already stored in plain text are hashed
// in place the way a presented key is (trimmed, lower case); their hints are cut from them before
// the plain text goes.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table redemptions add column key_hash text, add column key_hint text not null default '';
    update redemptions set
      key_hash = encode(sha256(convert_to(lower(trim(key)), 'UTF8')), 'hex'),
      key_hint = left(key, 4) || repeat('*', 8) || right(key, 4);
    alter table redemptions alter column key_hash set not null;
    drop index redemptions_key_key;
    alter table redemptions drop column key;
    create unique index redemptions_key_hash_key on redemptions (key_hash);
  `.execute(db);
}

// The plain keys cannot come back: the hash takes their place, so the column is usable again but
// every earlier code is unredeemable under the old scheme.
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table redemptions add column key text;
    update redemptions set key = key_hash;
    alter table redemptions alter column key set not null;
    drop index redemptions_key_hash_key;
    alter table redemptions drop column key_hash, drop column key_hint;
    create unique index redemptions_key_key on redemptions (key);
  `.execute(db);
}
