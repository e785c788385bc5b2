import { REDEMPTION_STATUS } from "~/domain/redemptions/redemption-constants";
import { redemptionKeyHash, redemptionKeyHint } from "~/domain/redemptions/redemption-keys.server";
import { moveTable } from "../table-mover";
import type { ImportStep } from "../types";
import { asDeletedAt, asInt, asString } from "../values";

const COLUMNS = [
  "id",
  "user_id",
  "key",
  "status",
  "name",
  "quota",
  "created_time",
  "redeemed_time",
  "used_user_id",
  "deleted_at",
];

/**
 * Redemption codes keep working: an unused one redeems once, a used one stays used. Switchyard
 * stores only a code's hash (decision 020), so the import hashes them: the full old codes cannot
 * be listed afterwards.
 */
export const redemptionsStep: ImportStep = {
  name: "redemptions",
  async run(ctx) {
    await moveTable(ctx, {
      source: "redemptions",
      target: "redemptions",
      columns: COLUMNS,
      map(row) {
        const id = asInt(row.id);
        const key = asString(row.key).trim();
        if (!key) {
          ctx.report.note("redemptions", id, "refused", "no code");
          return { skip: true };
        }
        let status = asInt(row.status, REDEMPTION_STATUS.unused);
        if (!(Object.values(REDEMPTION_STATUS) as number[]).includes(status)) {
          ctx.report.note("redemptions", id, "changed", `status ${status} unknown: imported disabled`);
          status = REDEMPTION_STATUS.disabled;
        }
        let quota = asInt(row.quota);
        if (quota < 0) {
          ctx.report.note("redemptions", id, "clamped", `quota ${quota} is negative: set to 0`);
          quota = 0;
        }
        return {
          row: {
            id,
            user_id: Math.max(asInt(row.user_id), 0),
            key_hash: redemptionKeyHash(key),
            key_hint: redemptionKeyHint(key),
            status,
            name: asString(row.name),
            quota,
            created_time: asInt(row.created_time),
            redeemed_time: asInt(row.redeemed_time),
            used_user_id: Math.max(asInt(row.used_user_id), 0),
            deleted_at: asDeletedAt(row.deleted_at),
          },
        };
      },
    });
  },
};
