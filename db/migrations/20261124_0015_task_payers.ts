import { sql, type Kysely } from "kysely";

// Midjourney and Suno tasks (docs/decisions/030). A failed task's charge goes back to the token
// that paid it as well as to the user (the reference refunds the user only), so each task row
// records its token. `refunded_at` says that the one refund happened (0: never); the refund's
// guard is the conditional move to the final state, this column is for the record.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table midjourneys add column token_id integer not null default 0;
    alter table midjourneys add column refunded_at bigint not null default 0;
    alter table tasks add column token_id integer not null default 0;
    alter table tasks add column refunded_at bigint not null default 0;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table midjourneys drop column token_id;
    alter table midjourneys drop column refunded_at;
    alter table tasks drop column token_id;
    alter table tasks drop column refunded_at;
  `.execute(db);
}
