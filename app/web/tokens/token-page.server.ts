import type { User } from "../../../db/schema";
import { userUsableGroups } from "~/domain/groups/groups.server";
import { listModelsForGroup } from "~/domain/groups/models.server";
import { options } from "~/domain/options/store.server";
import { formatTimestamp } from "~/utils/time-zone";
import { expiryPresets } from "~/domain/tokens/token-console-form";

/** What the token form needs besides the token itself: groups, models, presets and the zone its times are in. */
export async function tokenFormContext(user: User, timeZone: string) {
  const configured = options.json<Record<string, unknown>>("UserUsableGroups");
  return {
    groups: userUsableGroups(user),
    groupsConfigured: Boolean(configured && typeof configured === "object" && Object.keys(configured).length > 0),
    models: await listModelsForGroup(user.group),
    expiryPresets: expiryPresets(Date.now(), (seconds) => formatTimestamp(seconds, timeZone)),
    timeZone,
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}
