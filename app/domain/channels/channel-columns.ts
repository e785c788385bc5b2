import { upstreamUrlRefusal } from "~/utils/upstream-address";
import { getChannelType } from "./catalog";
import {
  checkJsonObject,
  KEY_CAP_LABELS,
  keyCapRangeMessage,
  MAX_KEY_CAP,
  normaliseBaseUrl,
  type ChannelFields,
} from "./channel-input";
import type { Result } from "~/utils/result";

export type Columns = {
  type: number;
  name: string;
  base_url: string;
  other: string;
  openai_organization: string | null;
  test_model: string | null;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  priority: number;
  weight: number;
  auto_ban: number;
  max_input_tokens: number;
  key_max_concurrency: number;
  key_rpm_limit: number;
};

/** Validates the fields present and maps them to columns (absent fields stay absent). */
export function toColumns(fields: ChannelFields, type: number): Result<Partial<Columns>> {
  const out: Partial<Columns> = {};
  if (fields.type !== undefined) out.type = fields.type;
  if (fields.name !== undefined) out.name = fields.name;
  if (fields.base_url !== undefined) {
    const url = normaliseBaseUrl(fields.base_url);
    if (url && !/^https?:\/\/[^\s/]+/i.test(url))
      return { ok: false, message: "代理地址必须以 http:// 或 https:// 开头" };
    const refusal = url ? upstreamUrlRefusal(url) : undefined;
    if (refusal) return { ok: false, message: refusal };
    out.base_url = url;
  }
  if (fields.other !== undefined) out.other = fields.other.trim();
  if (fields.openai_organization !== undefined) out.openai_organization = fields.openai_organization || null;
  if (fields.test_model !== undefined) out.test_model = fields.test_model || null;
  if (fields.models !== undefined) {
    if (fields.models.length === 0) return { ok: false, message: "请至少选择一个模型！" };
    out.models = fields.models.join(",");
  }
  const groups = fields.groups ?? fields.group;
  if (groups !== undefined) out.group = groups.length ? groups.join(",") : "default";
  const mappingError = checkJsonObject(fields.model_mapping, "模型映射必须是合法的 JSON 格式！");
  if (mappingError) return { ok: false, message: mappingError };
  if (fields.model_mapping !== undefined) out.model_mapping = fields.model_mapping.trim();
  const statusError = checkJsonObject(fields.status_code_mapping, "状态码映射必须是合法的 JSON 格式！");
  if (statusError) return { ok: false, message: statusError };
  if (fields.status_code_mapping !== undefined) out.status_code_mapping = fields.status_code_mapping.trim();
  if (fields.priority !== undefined) {
    if (fields.priority < -999) return { ok: false, message: "优先级不能小于 -999" };
    out.priority = fields.priority;
  }
  // docs/product.md: weight has min 0 and negatives become 0.
  if (fields.weight !== undefined) out.weight = Math.max(0, fields.weight);
  if (fields.auto_ban !== undefined) out.auto_ban = fields.auto_ban;
  if (fields.max_input_tokens !== undefined) out.max_input_tokens = fields.max_input_tokens;
  for (const [name, label] of Object.entries(KEY_CAP_LABELS) as [keyof typeof KEY_CAP_LABELS, string][]) {
    const value = fields[name];
    if (value === undefined) continue;
    if (value < 0 || value > MAX_KEY_CAP) return { ok: false, message: keyCapRangeMessage(label) };
    out[name] = value;
  }
  if (out.other === undefined && fields.type !== undefined) {
    const fallback = getChannelType(type)?.defaultOther;
    if (fallback) out.other = fallback;
  }
  return { ok: true, value: out };
}
