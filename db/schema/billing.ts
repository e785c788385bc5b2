import type { Generated } from "kysely";
import type { Int8, Int8Required } from "./int8";

export interface QuotaReservationsTable {
  id: Generated<number>;
  request_id: string;
  node_id: Generated<string>;
  user_id: number;
  token_id: Generated<number>;
  token_unlimited: Generated<boolean>;
  amount: Int8Required;
  created_at: Generated<Date>;
}

export interface QuotaLeasesTable {
  id: Generated<number>;
  node_id: string;
  user_id: number;
  token_id: Generated<number>;
  token_limited: Generated<boolean>;
  amount: Int8Required;
  created_at: Generated<Date>;
}

export interface BillingJournalsTable {
  node_id: string;
  applied_seq: Int8;
  created_at: Generated<Date>;
}
