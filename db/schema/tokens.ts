import type { Generated } from "kysely";
import type { Int8 } from "./int8";

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  key_hash: string;
  key_encrypted: string;
  key_hint: Generated<string>;
  status: Generated<number>;
  name: Generated<string>;
  created_time: Int8;
  accessed_time: Int8;
  expired_time: Int8;
  remain_quota: Int8;
  /** The part of remain_quota held by nodes' leases. */
  leased: Int8;
  unlimited_quota: Generated<boolean>;
  model_limits_enabled: Generated<boolean>;
  model_limits: Generated<string>;
  allow_ips: Generated<string>;
  used_quota: Int8;
  group: Generated<string>;
  deleted_at: Date | null;
  /** Requests per minute (sliding), 0 = no limit. */
  rpm_limit: Generated<number>;
  /** Prompt plus completion tokens per minute (sliding), 0 = no limit. */
  tpm_limit: Generated<number>;
}
