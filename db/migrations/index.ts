import type { Migration } from "kysely";
import * as initialSchema from "./20261122_0001_initial_schema";
import * as quotaReservations from "./20261122_0002_quota_reservations";
import * as quotaLeases from "./20261123_0003_quota_leases";
import * as shortfall from "./20261124_0004_shortfall";
import * as oauthStates from "./20261124_0006_oauth_states";
import * as epayOrders from "./20261124_0010_epay_orders";
import * as usageRollups from "./20261124_0011_usage_rollups";
import * as rollupsByChannelAndToken from "./20261124_0013_rollups_by_channel_and_token";
import * as verificationCodes from "./20261124_0005_verification_codes";
import * as redemptionKeyHash from "./20261124_0009_redemption_key_hash";
import * as logIndexes from "./20261124_0012_log_indexes";
import * as jobRunsAndQuotaReminders from "./20261124_0014_job_runs_and_quota_reminders";
import * as taskPayers from "./20261124_0015_task_payers";
import * as rateLimits from "./20261127_0016_rate_limits";
import * as importRuns from "./20261127_0017_import_runs";
import * as userLanguage from "./20261127_0018_user_language";

// Append-only: a new migration gets a new timestamped file and a new line here. The list is
// static (not read from disk) so it survives bundling into the server build.
export const migrations: Record<string, Migration> = {
  "20261122_0001_initial_schema": initialSchema,
  "20261122_0002_quota_reservations": quotaReservations,
  "20261123_0003_quota_leases": quotaLeases,
  "20261124_0004_shortfall": shortfall,
  "20261124_0006_oauth_states": oauthStates,
  "20261124_0010_epay_orders": epayOrders,
  "20261124_0011_usage_rollups": usageRollups,
  "20261124_0013_rollups_by_channel_and_token": rollupsByChannelAndToken,
  "20261124_0005_verification_codes": verificationCodes,
  "20261124_0009_redemption_key_hash": redemptionKeyHash,
  "20261124_0012_log_indexes": logIndexes,
  "20261124_0014_job_runs_and_quota_reminders": jobRunsAndQuotaReminders,
  "20261124_0015_task_payers": taskPayers,
  "20261127_0016_rate_limits": rateLimits,
  "20261127_0017_import_runs": importRuns,
  "20261127_0018_user_language": userLanguage,
};
