import { z } from "zod";
import { int4Schema, MAX_ID } from "~/utils/edge-input";
import type { Result } from "~/utils/result";

/**
 * Channel fields as the API and the console send them. Lists arrive as comma strings (the
 * reference's wire) or arrays (the form); both normalise to arrays here.
 */
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter(Boolean))
  .transform((v) => [...new Set(v)]);

export const channelFieldsSchema = z.object({
  type: z.coerce.number().int().min(0).max(99).optional(),
  name: z.string().trim().max(100).optional(),
  key: z.string().max(20_000).optional(),
  base_url: z.string().trim().max(500).optional(),
  other: z.string().max(2_000).optional(),
  openai_organization: z.string().trim().max(200).nullable().optional(),
  test_model: z.string().trim().max(200).nullable().optional(),
  models: list.optional(),
  group: list.optional(),
  groups: list.optional(),
  model_mapping: z.string().max(20_000).optional(),
  status_code_mapping: z.string().max(5_000).optional(),
  // Both are integer columns: a value past 2³¹−1 is refused here, not by the database.
  priority: int4Schema("优先级必须是整数").optional(),
  weight: int4Schema("权重必须是整数").optional(),
  auto_ban: z.coerce.number().int().min(0).max(1).optional(),
  max_input_tokens: z.coerce.number().int().min(0).max(MAX_ID).optional(),
  // Each key's caps (0 = none). Any int4 passes here; the range is the domain's refusal, a
  // business answer (success:false) rather than a malformed body.
  key_max_concurrency: int4Schema("每个密钥最大并发数必须是整数").optional(),
  key_rpm_limit: int4Schema("每个密钥每分钟请求数必须是整数").optional(),
  // How a multi-key channel picks among its keys; ignored for a one-key channel.
  multi_key_mode: z.enum(["random", "polling"]).optional(),
});

/** The largest per-key cap: far past any upstream's real limit, well inside an int4. */
export const MAX_KEY_CAP = 1_000_000;
export const KEY_CAP_LABELS = {
  key_max_concurrency: "每个密钥最大并发数",
  key_rpm_limit: "每个密钥每分钟请求数",
} as const;
export const keyCapRangeMessage = (label: string) => `${label}必须在 0 到 ${MAX_KEY_CAP} 之间（0 表示不限制）`;

/** How the key lines of a new channel become channels (the reference's add modes). */
export const CREATE_MODES = ["single", "batch", "multi_to_single"] as const;
export type CreateMode = (typeof CREATE_MODES)[number];

export type ChannelFields = z.infer<typeof channelFieldsSchema>;

/** model_mapping and status_code_mapping: empty, or a JSON object (the messages of docs/product.md, Channels). */
export function checkJsonObject(text: string | undefined, message: string): string | undefined {
  if (!text || !text.trim()) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? undefined : message;
  } catch {
    return message;
  }
}

export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, "");
}

/** The upstream's model list for the form's current values (the page supplies it: the relay lives above the domain). */
export type ModelLister = (form: {
  type: number;
  base_url: string;
  other: string;
  key: string;
}) => Promise<Result<string[]>>;
