import type { Generated } from "kysely";
import type { Int8 } from "./int8";

/** An online top-up order (migration 0010, docs/decisions/021): money in fen, quota fixed at order time. */
export interface TopUpsTable {
  id: Generated<number>;
  user_id: number;
  /** The amount as the user asked for it (dollars, or quota units without currency display). */
  amount: Int8;
  /** The payable sum in fen (yuan × 100), compared for equality with what the gateway reports paid. */
  money_cents: Int8;
  /** The quota the order credits once paid. */
  quota: Int8;
  trade_no: string;
  /** The gateway's type: alipay or wxpay. */
  payment_method: Generated<string>;
  /** The gateway's own trade number, from its notify. */
  provider_trade_no: Generated<string>;
  create_time: Int8;
  paid_time: Int8;
  status: Generated<"pending" | "success">;
}

export interface RedemptionsTable {
  id: Generated<number>;
  user_id: Generated<number>;
  /** SHA-256 of the key (hex); the key itself is never stored (migration 0009, decision 020). */
  key_hash: string;
  /** The key's first and last four characters around asterisks: tells codes apart, redeems nothing. */
  key_hint: Generated<string>;
  status: Generated<number>;
  name: Generated<string>;
  quota: Int8;
  created_time: Int8;
  redeemed_time: Int8;
  used_user_id: Generated<number>;
  deleted_at: Date | null;
}
