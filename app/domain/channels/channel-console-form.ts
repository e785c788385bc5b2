import { z } from "zod";
import { int4Schema } from "~/utils/edge-input";

/**
 * The console's channel form. Multi-selects arrive as repeated fields; `intent` carries the
 * form's helper buttons (fill default models, add custom models, insert templates), which are
 * answered by re-rendering the form — they work without JavaScript and never save.
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
  auto_ban: z.string().optional().transform((v) => v === "on"),
  test_model: z.string().trim().default(""),
  priority: int4Schema("优先级必须是整数").min(-999, "优先级不能小于 -999").default(0),
  weight: int4Schema("权重必须是整数").default(0),
});

export type ChannelConsoleInput = z.infer<typeof channelConsoleSchema>;
