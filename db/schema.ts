import type { Insertable, Selectable, Updateable } from "kysely";
import type { UsersTable, SessionsTable, VerificationCodesTable, OAuthStatesTable } from "./schema/accounts";
import type { TokensTable } from "./schema/tokens";
import type { ChannelsTable, AbilitiesTable } from "./schema/channels";
import type { QuotaReservationsTable, QuotaLeasesTable, BillingJournalsTable } from "./schema/billing";
import type {
  LogsTable,
  QuotaDataTable,
  QuotaDataModelsTable,
  QuotaDataChannelsTable,
  QuotaDataTokensTable,
  UsageRollupProgressTable,
} from "./schema/logs";
import type { MidjourneysTable, TasksTable } from "./schema/tasks";
import type { TopUpsTable, RedemptionsTable } from "./schema/payments";
import type { OptionsTable, JobRunsTable, ImportRunsTable } from "./schema/system";

// The table interfaces live in db/schema/, one file per group of tables; this module gathers
// them into the DB interface and re-exports them, so that importers need only this path.
export type * from "./schema/accounts";
export type * from "./schema/tokens";
export type * from "./schema/channels";
export type * from "./schema/billing";
export type * from "./schema/logs";
export type * from "./schema/tasks";
export type * from "./schema/payments";
export type * from "./schema/system";

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
