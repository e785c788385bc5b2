import { sql, type Kysely } from "kysely";

// Shortfalls (docs/decisions/009): quota a delivered call cost beyond what its payer had left.
// Balances never go below zero, so that part is not charged; it is the operator's loss, counted
// per user and per channel by the same settlement statement that books the charge.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table users add column shortfall_quota bigint not null default 0;
    alter table channels add column shortfall_quota bigint not null default 0;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table channels drop column shortfall_quota;
    alter table users drop column shortfall_quota;
  `.execute(db);
}
