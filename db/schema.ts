import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

// int8 columns are parsed to JS numbers on both pg and PGlite (db/connect.ts): quota fits well
// inside 2^53 (that is 18 billion USD of quota).
type Int8 = ColumnType<number, number | undefined, number>;
type Int8Required = ColumnType<number, number, number>;

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
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: Generated<Date>;
  expires_at: Date;
  ip: Generated<string>;
  user_agent: Generated<string>;
}

export interface OptionsTable {
  key: string;
  value: string;
}

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

export interface MidjourneysTable {
  id: Generated<number>;
  code: Generated<number>;
  user_id: Generated<number>;
  action: Generated<string>;
  mj_id: Generated<string>;
  prompt: Generated<string>;
  prompt_en: Generated<string>;
  description: Generated<string>;
  state: Generated<string>;
  submit_time: Int8;
  start_time: Int8;
  finish_time: Int8;
  image_url: Generated<string>;
  status: Generated<string>;
  progress: Generated<string>;
  fail_reason: Generated<string>;
  channel_id: Generated<number>;
  quota: Int8;
  buttons: Generated<string>;
  properties: Generated<string>;
  /** Migration 0015: the token that paid, refunded with the user when the task fails. */
  token_id: Generated<number>;
  refunded_at: Int8;
}

export interface TasksTable {
  id: ColumnType<number, number | undefined, never>;
  created_at: Int8;
  updated_at: Int8;
  task_id: Generated<string>;
  platform: Generated<string>;
  user_id: Generated<number>;
  channel_id: Generated<number>;
  quota: Int8;
  action: Generated<string>;
  status: Generated<string>;
  fail_reason: Generated<string>;
  submit_time: Int8;
  start_time: Int8;
  finish_time: Int8;
  progress: Generated<string>;
  properties: unknown;
  data: unknown;
  /** Migration 0015: the token that paid, refunded with the user when the task fails. */
  token_id: Generated<number>;
  refunded_at: Int8;
}

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

/** An OAuth state handed out (migration 0006): hashes only; single use; bound to one browser. */
export interface OAuthStatesTable {
  state_hash: string;
  binding_hash: string;
  aff_code: Generated<string>;
  expires_at: Date;
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

/** A recurring job's last run and a long run's progress (migration 0014; times in unix ms). */
export interface JobRunsTable {
  name: string;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_outcome: Generated<string>;
  last_message: Generated<string>;
  running: Generated<boolean>;
  progress_total: Generated<number>;
  progress_done: Generated<number>;
  progress_detail: Generated<string>;
}

/** One row per `npm run import --apply` into this database (migration 0017, decision 042). */
export interface ImportRunsTable {
  id: Generated<number>;
  source: string;
  fork: string;
  started_at: Generated<Date>;
  finished_at: Date | null;
}

export interface DB {
  import_runs: ImportRunsTable;
  job_runs: JobRunsTable;
  verification_codes: VerificationCodesTable;
  quota_reservations: QuotaReservationsTable;
  quota_leases: QuotaLeasesTable;
  billing_journals: BillingJournalsTable;
  users: UsersTable;
  sessions: SessionsTable;
  options: OptionsTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  top_ups: TopUpsTable;
  quota_data: QuotaDataTable;
  quota_data_models: QuotaDataModelsTable;
  quota_data_channels: QuotaDataChannelsTable;
  quota_data_tokens: QuotaDataTokensTable;
  usage_rollup_progress: UsageRollupProgressTable;
  oauth_states: OAuthStatesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Token = Selectable<TokensTable>;
export type Channel = Selectable<ChannelsTable>;
export type Ability = Selectable<AbilitiesTable>;
export type LogRow = Selectable<LogsTable>;
export type Redemption = Selectable<RedemptionsTable>;
