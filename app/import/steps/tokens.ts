import { parseAllowList, normaliseAllowList } from "~/domain/tokens/ip-allow-list";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import { sealTokenKey } from "~/domain/tokens/token-keys.server";
import { moveTable } from "../table-mover";
import type { ImportStep } from "../types";
import { asBool, asDeletedAt, asInt, asString } from "../values";
import { sourceIds } from "./source-ids";

const COLUMNS = [
  "id",
  "user_id",
  "key",
  "status",
  "name",
  "created_time",
  "accessed_time",
  "expired_time",
  "remain_quota",
  "unlimited_quota",
  "model_limits_enabled",
  "model_limits",
  "allow_ips",
  "used_quota",
  "group",
  "deleted_at",
  // one-api's names for the model limits and the allow-list
  "models",
  "subnet",
];
const KNOWN_STATUSES = new Set<number>(Object.values(TOKEN_STATUS));

export const tokensStep: ImportStep = {
  name: "tokens",
  async run(ctx) {
    const users = await sourceIds(ctx, "users");
    await moveTable(ctx, {
      source: "tokens",
      target: "tokens",
      columns: COLUMNS,
      map(row, _ctx, have) {
        const id = asInt(row.id);
        const note = (outcome: "changed" | "clamped" | "dropped" | "refused", reason: string) =>
          ctx.report.note("tokens", id, outcome, reason);
        const userId = asInt(row.user_id);
        if (!users.has(userId)) {
          note("dropped", `belongs to user ${userId}, who is not in the source`);
          return { skip: true };
        }
        // Both forks store the 48 characters without `sk-`; a key pasted with it is taken too.
        const key = asString(row.key).trim().replace(/^sk-/, "");
        if (!/^[0-9A-Za-z]+$/.test(key)) {
          note("refused", "key is empty or not letters and digits: it could never be presented");
          return { skip: true };
        }
        let status = asInt(row.status, TOKEN_STATUS.enabled);
        if (!KNOWN_STATUSES.has(status)) {
          note("changed", `status ${status} unknown: imported disabled`);
          status = TOKEN_STATUS.disabled;
        }
        const unlimited = asBool(row.unlimited_quota);
        let remain = asInt(row.remain_quota);
        if (remain < 0) {
          // Usual on unlimited tokens (the sources keep subtracting); on a limited one it means spent.
          note("clamped", `remain_quota ${remain} is negative${unlimited ? " (an unlimited token)" : ""}: set to 0`);
          remain = 0;
        }
        let expired = asInt(row.expired_time, -1);
        if (expired < -1 || expired === 0) {
          note("changed", `expired_time ${expired}: imported as never (-1)`);
          expired = -1;
        }
        // new-api: a flag and a comma list; one-api: the list alone (empty or NULL = any model).
        const oneApiModels = have.has("models") && !have.has("model_limits_enabled");
        const modelLimits = asString(oneApiModels ? row.models : row.model_limits).trim();
        const limitsEnabled = oneApiModels ? modelLimits !== "" : asBool(row.model_limits_enabled);
        const allowText = normaliseAllowList(asString(have.has("allow_ips") ? row.allow_ips : row.subnet));
        const { invalid } = parseAllowList(allowText);
        if (invalid.length && status === TOKEN_STATUS.enabled) {
          // Dropping the entries would widen who may use the key: it waits disabled instead.
          note(
            "changed",
            `IP allow-list entries not understood (${invalid.join(", ")}): imported disabled, fix the list and enable it`,
          );
          status = TOKEN_STATUS.disabled;
        }
        return {
          row: {
            id,
            user_id: userId,
            ...sealTokenKey(key),
            status,
            name: asString(row.name),
            created_time: asInt(row.created_time),
            accessed_time: asInt(row.accessed_time),
            expired_time: expired,
            remain_quota: remain,
            unlimited_quota: unlimited,
            model_limits_enabled: limitsEnabled,
            model_limits: modelLimits,
            allow_ips: allowText,
            used_quota: Math.max(asInt(row.used_quota), 0),
            group: asString(row.group),
            deleted_at: asDeletedAt(row.deleted_at),
          },
        };
      },
    });
  },
};
