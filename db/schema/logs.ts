import type { ColumnType, Generated } from "kysely";
import type { Int8, Int8Required } from "./int8";

export interface LogsTable {
  id: ColumnType<number, number | undefined, never>;
  created_at: Int8Required;
  type: number;
  content: Generated<string>;
  user_id: Generated<number>;
  username: Generated<string>;
  token_name: Generated<string>;
  model_name: Generated<string>;
  quota: Int8;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  use_time: Generated<number>;
  is_stream: Generated<boolean>;
  channel_id: Generated<number>;
  token_id: Generated<number>;
  group: Generated<string>;
  other: Generated<string>;
}

export interface QuotaDataTable {
  id: Generated<number>;
  user_id: Generated<number>;
  username: Generated<string>;
  model_name: Generated<string>;
  created_at: Int8Required;
  token_used: Int8;
  count: Int8;
  quota: Int8;
}

/** quota_data summed over all users: one row per (model, hour start). */
export interface QuotaDataModelsTable {
  model_name: string;
  created_at: Int8Required;
  token_used: Int8;
  count: Int8;
  quota: Int8;
}

/** Consumption per (channel, model, hour start): the log stat filtered by a channel. */
export interface QuotaDataChannelsTable {
  channel_id: number;
  model_name: string;
  created_at: Int8Required;
  token_used: Int8;
  count: Int8;
  quota: Int8;
}

/** Consumption per (user, token name, model, hour start): the log stat filtered by a token. */
export interface QuotaDataTokensTable {
  user_id: number;
  username: Generated<string>;
  token_name: string;
  model_name: string;
  created_at: Int8Required;
  token_used: Int8;
  count: Int8;
  quota: Int8;
}

/** Where the hourly rollup job has got to (one row; docs/decisions/023). */
export interface UsageRollupProgressTable {
  id: number;
  /** Hour start (unix s): every hour before it has been rolled up after it ended. */
  rolled_until: Int8Required;
  last_run_at: Int8Required;
}
