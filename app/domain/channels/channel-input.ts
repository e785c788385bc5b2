import { z } from "zod";
import { int4Schema, MAX_ID } from "~/utils/edge-input";

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
});

export type ChannelFields = z.infer<typeof channelFieldsSchema>;

/** model_mapping and status_code_mapping: empty, or a JSON object (spec messages). */
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
