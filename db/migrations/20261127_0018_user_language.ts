import { sql, type Kysely } from "kysely";

// The language each user last read the console in (docs/decisions/045), so that mails sent in
// the background (the quota reminder, root's channel notices) reach them in it. '' means not
// known yet: those mails keep the product's Chinese. A constant default: no table rewrite.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column language text not null default ''`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop column language`.execute(db);
}
