import { sql, type Kysely } from "kysely";

// Online top-up orders through Epay (docs/decisions/021). The initial schema already made
// trade_no unique (one order per trade number, so a notify can match at most one order); this
// makes the rest of an order exact and fixed when it is created:
// - money_cents replaces the reference's float `money`: the notify's paid sum is compared with
//   it for equality, which a float cannot promise;
// - quota is what the order credits, fixed at order time, so a later change of QuotaPerUnit or
//   of the currency display does not change what an already-paid order yields;
// - payment_method, the gateway's own trade number and the paid time say what happened;
// - status is 'pending' or 'success' only, and a user's history is read newest first.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table top_ups drop column money;
    alter table top_ups
      add column money_cents bigint not null default 0,
      add column quota bigint not null default 0,
      add column payment_method text not null default '',
      add column provider_trade_no text not null default '',
      add column paid_time bigint not null default 0,
      add constraint top_ups_status_check check (status in ('pending', 'success')),
      add constraint top_ups_amounts_check check (money_cents >= 0 and quota >= 0);
    drop index top_ups_user_id_idx;
    create index top_ups_user_id_idx on top_ups (user_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index top_ups_user_id_idx;
    create index top_ups_user_id_idx on top_ups (user_id);
    alter table top_ups
      drop constraint top_ups_amounts_check,
      drop constraint top_ups_status_check,
      drop column paid_time,
      drop column provider_trade_no,
      drop column payment_method,
      drop column quota,
      drop column money_cents,
      add column money double precision not null default 0;
  `.execute(db);
}
