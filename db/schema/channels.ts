import type { Generated } from "kysely";
import type { Int8, Int8Required } from "./int8";

export interface ChannelsTable {
  id: Generated<number>;
  type: Generated<number>;
  key_encrypted: string;
  openai_organization: string | null;
  test_model: string | null;
  status: Generated<number>;
  name: Generated<string>;
  weight: Generated<number>;
  created_time: Int8;
  test_time: Int8;
  response_time: Generated<number>;
  base_url: Generated<string>;
  other: Generated<string>;
  balance: Generated<number>;
  balance_updated_time: Int8;
  models: Generated<string>;
  group: Generated<string>;
  used_quota: Int8;
  /** Quota calls through this channel cost beyond what their payers had left (decision 009). */
  shortfall_quota: Int8;
  model_mapping: Generated<string>;
  status_code_mapping: Generated<string>;
  priority: Int8;
  auto_ban: Generated<number>;
  other_info: Generated<string>;
  max_input_tokens: Generated<number>;
  /** The reference's multi-key JSON (`is_multi_key`, `multi_key_mode`, `multi_key_status_list`…); '' for a one-key channel. */
  channel_info: Generated<string>;
  /** Each key's cap on requests in flight, 0 = none. */
  key_max_concurrency: Generated<number>;
  /** Each key's cap on requests per minute (sliding), 0 = none. */
  key_rpm_limit: Generated<number>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: boolean;
  priority: Int8Required;
  weight: number;
}
