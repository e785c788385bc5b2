import type { Transaction } from "kysely";
import type { DB } from "../../../db/schema";
import { rebuildAbilities } from "~/domain/channels/abilities.server";
import { parseChannelInfo } from "~/domain/channels/multi-key";
import { encryptSecret } from "~/utils/secrets.server";
import { moveTable } from "../table-mover";
import type { ImportStep, SourceRow } from "../types";
import { asFloat, asInt, asOptionalString, asString } from "../values";
import { HIGHEST_NEW_API_TYPE, mapOneApiType, ONE_API_TYPE_NAMES } from "./one-api-channel-types";
import { otherFromOneApiConfig } from "./one-api-channel-config";

const COLUMNS = [
  // GORM names the Go field OpenAIOrganization `open_ai_organization`
  "id",
  "type",
  "key",
  "open_ai_organization",
  "openai_organization",
  "test_model",
  "status",
  "name",
  "weight",
  "created_time",
  "test_time",
  "response_time",
  "base_url",
  "other",
  "balance",
  "balance_updated_time",
  "models",
  "group",
  "used_quota",
  "model_mapping",
  "status_code_mapping",
  "priority",
  "auto_ban",
  "other_info",
  "channel_info",
  // one-api
  "config",
];
const NOT_CARRIED = ["tag", "setting", "param_override", "system_prompt", "header_override", "remark"];
const DISABLED_MANUALLY = 2;

type ChannelRow = {
  id: number;
  group: string;
  models: string;
  status: number;
  priority: number;
  weight: number;
} & Record<string, unknown>;

export const channelsStep: ImportStep = {
  name: "channels",
  async run(ctx) {
    const have = new Set(await ctx.source.columns("channels"));
    const dropped = NOT_CARRIED.filter((c) => have.has(c));
    if (dropped.length)
      ctx.report.remark("channels", `columns not carried (Switchyard has no such field): ${dropped.join(", ")}`);
    const oneApi = ctx.fork.fork === "one-api";
    await moveTable<ChannelRow>(ctx, {
      source: "channels",
      target: "channels",
      columns: COLUMNS,
      map(row) {
        const id = asInt(row.id);
        const note = (outcome: "changed" | "clamped", reason: string) =>
          ctx.report.note("channels", id, outcome, reason);
        const sourceType = asInt(row.type);
        let type = sourceType;
        let status = asInt(row.status, 1);
        if (![1, 2, 3].includes(status)) {
          note("changed", `status ${status} unknown: imported disabled`);
          status = DISABLED_MANUALLY;
        }
        let baseUrl = asString(row.base_url);
        let key = asString(row.key);
        let other = asString(row.other);
        const importNotes: string[] = [];
        if (oneApi) {
          const mapping = mapOneApiType(sourceType);
          const name = ONE_API_TYPE_NAMES[sourceType] ?? `type ${sourceType}`;
          if (!mapping) {
            type = 0;
            status = DISABLED_MANUALLY;
            importNotes.push(
              `one-api channel type ${sourceType} (${name}) has no counterpart in Switchyard: imported disabled as 未知类型`,
            );
          } else if (mapping.type !== sourceType) {
            type = mapping.type;
            if (!baseUrl && mapping.baseUrl) baseUrl = mapping.baseUrl;
            note(
              "changed",
              `one-api type ${sourceType} (${name}) is Switchyard type ${type} (${mapping.name})${mapping.baseUrl ? `, base URL ${baseUrl}` : ""}`,
            );
          }
          const fromConfig = otherFromOneApiConfig(type, asString(row.config), key);
          if (fromConfig.other !== undefined && !other) other = fromConfig.other;
          if (fromConfig.key !== undefined) key = fromConfig.key;
          for (const line of fromConfig.notes) note("changed", line);
        } else if (sourceType > HIGHEST_NEW_API_TYPE || sourceType < 0) {
          type = 0;
          status = DISABLED_MANUALLY;
          importNotes.push(
            `new-api channel type ${sourceType} has no counterpart in Switchyard yet: imported disabled as 未知类型`,
          );
        }
        for (const line of importNotes) note("changed", line);
        let weight = asInt(row.weight);
        if (weight < 0) {
          note("clamped", `weight ${weight} is negative: set to 0`);
          weight = 0;
        }
        let priority = asInt(row.priority);
        if (priority < -999) {
          note("clamped", `priority ${priority} is below -999: set to -999`);
          priority = -999;
        }
        return {
          row: {
            id,
            type,
            key_encrypted: encryptSecret(key),
            openai_organization: asOptionalString(row.open_ai_organization ?? row.openai_organization),
            test_model: asOptionalString(row.test_model),
            status,
            name: asString(row.name),
            weight,
            created_time: asInt(row.created_time),
            test_time: asInt(row.test_time),
            response_time: asInt(row.response_time),
            base_url: baseUrl,
            other,
            balance: asFloat(row.balance),
            balance_updated_time: asInt(row.balance_updated_time),
            models: asString(row.models),
            group: asString(row.group, "default") || "default",
            used_quota: Math.max(asInt(row.used_quota), 0),
            model_mapping: jsonOrEmpty(row, "model_mapping", (r) => note("changed", r)),
            status_code_mapping: jsonOrEmpty(row, "status_code_mapping", (r) => note("changed", r)),
            priority,
            auto_ban: asInt(row.auto_ban, 1),
            other_info: otherInfoWith(asString(row.other_info), importNotes, sourceType),
            channel_info: channelInfoOf(row),
          },
        };
      },
      async afterWrite(trx: Transaction<DB>, written) {
        // The routing index is Switchyard's own, rebuilt by its own writer from each channel.
        for (const channel of written) await rebuildAbilities(trx, channel);
      },
    });
  },
};

/** A mapping that is not a JSON object would fail every call through the channel: it is cleared and reported. */
function jsonOrEmpty(row: SourceRow, column: string, report: (reason: string) => void): string {
  const text = asString(row[column]).trim();
  if (!text) return "";
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return text;
  } catch {}
  report(`${column} is not a JSON object: cleared (it was ${JSON.stringify(text.slice(0, 80))})`);
  return "";
}

function otherInfoWith(sourceText: string, notes: string[], sourceType: number): string {
  if (notes.length === 0) return sourceText;
  let info: Record<string, unknown> = {};
  try {
    const parsed: unknown = sourceText ? JSON.parse(sourceText) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) info = parsed as Record<string, unknown>;
    else info = { source_other_info: sourceText };
  } catch {
    info = { source_other_info: sourceText };
  }
  return JSON.stringify({ ...info, import_note: notes.join("; "), source_type: sourceType });
}

/** Later new-api's multi-key state, when it reads as Switchyard's; otherwise a one-key channel. */
function channelInfoOf(row: SourceRow): string {
  const text = asString(row.channel_info).trim();
  const info = parseChannelInfo(text);
  return info.is_multi_key ? JSON.stringify(info) : "";
}
