import type { Generated } from "kysely";
import type { Int8 } from "./int8";

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  display_name: Generated<string>;
  role: Generated<number>;
  status: Generated<number>;
  email: Generated<string>;
  github_id: Generated<string>;
  wechat_id: Generated<string>;
  telegram_id: Generated<string>;
  access_token_hash: string | null;
  quota: Int8;
  /** The part of quota held by nodes' leases (see migration 0003). */
  leased: Int8;
  used_quota: Int8;
  request_count: Int8;
  /** Quota delivered calls cost beyond what was left to charge (the operator's loss; decision 009). */
  shortfall_quota: Int8;
  group: Generated<string>;
  aff_code: string | null;
  aff_count: Generated<number>;
  aff_quota: Int8;
  aff_history: Int8;
  inviter_id: Generated<number>;
  created_time: Int8;
  deleted_at: Date | null;
  /** Armed while quota >= QuotaRemindThreshold; the reminder mail disarms it (migration 0014). */
  quota_remind_armed: Generated<boolean>;
  /** The language the user last read the console in, for background mails; '' = not known (migration 0018). */
  language: Generated<string>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: Generated<Date>;
  expires_at: Date;
  ip: Generated<string>;
  user_agent: Generated<string>;
}

/** Email codes and reset tokens, hashed (migration 0005). */
export interface VerificationCodesTable {
  purpose: string;
  email: string;
  code_hash: string;
  sent_at: Generated<Date>;
  expires_at: Date;
  attempts: Generated<number>;
}

/** An OAuth state handed out (migration 0006): hashes only; single use; bound to one browser. */
export interface OAuthStatesTable {
  state_hash: string;
  binding_hash: string;
  aff_code: Generated<string>;
  expires_at: Date;
}
