import { z } from "zod";
import { messages } from "~/messages";
import { DEFAULT_REDEMPTION_QUOTA } from "./redemption-constants";

/**
 * The console's redemption form (add and edit). Ranges are the domain's to judge (one place for
 * the console and the API); here only "is it a whole number".
 */
export const redemptionConsoleSchema = z.object({
  name: z.string({ error: messages.redemptionNameLength }).trim(),
  quota: z.coerce
    .number({ error: messages.redemptionQuotaRange })
    .int(messages.redemptionQuotaRange)
    .default(DEFAULT_REDEMPTION_QUOTA),
  count: z.coerce.number({ error: messages.redemptionCountTooSmall }).int(messages.redemptionCountTooSmall).default(1),
});

export type RedemptionConsoleInput = z.infer<typeof redemptionConsoleSchema>;
