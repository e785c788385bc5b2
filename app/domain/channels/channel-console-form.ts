import { z } from "zod";
import { int4Schema } from "~/utils/edge-input";
import { KEY_CAP_LABELS, keyCapRangeMessage, MAX_KEY_CAP } from "./channel-input";

const keyCap = (label: string) =>
  int4Schema(`${label}必须是整数`)
    .min(0, keyCapRangeMessage(label))
    .max(MAX_KEY_CAP, keyCapRangeMessage(label))
    .default(0);

/**
 * The console's channel form. Multi-selects arrive as repeated fields; `intent` carries the
 * form's helper buttons (fill default models, add custom models, insert templates), which are
 * answered by re-rendering the form — they work without JavaScript and never save. A multi-key
 * channel's per-key buttons (enable-key / disable-key with key_index) act at once and come back
 * to the edit page.
 */
export const channelConsoleSchema = z.object({
  type: z.coerce.number().int().default(1),
  name: z.string().trim().default(""),
  key: z.string().default(""),
  base_url: z.string().trim().default(""),
  other: z.string().default(""),
  openai_organization: z.string().trim().default(""),
  models: z.array(z.string()).default([]),
  custom_models: z.string().default(""),
  groups: z.array(z.string()).default([]),
  model_mapping: z.string().default(""),
  status_code_mapping: z.string().default(""),
  auto_ban: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  test_model: z.string().trim().default(""),
  priority: int4Schema("优先级必须是整数").min(-999, "优先级不能小于 -999").default(0),
  weight: int4Schema("权重必须是整数").default(0),
  // On add: one channel per key line (batch), or one channel holding every line as its keys.
  key_mode: z.enum(["batch", "multi_to_single"]).default("batch"),
  multi_key_mode: z.enum(["random", "polling"]).default("random"),
  key_max_concurrency: keyCap(KEY_CAP_LABELS.key_max_concurrency),
  key_rpm_limit: keyCap(KEY_CAP_LABELS.key_rpm_limit),
});

export type ChannelConsoleInput = z.infer<typeof channelConsoleSchema>;
