import { getOptionDef } from "./registry";
import { saveOption } from "./store.server";
import type { Result } from "~/utils/result";

/**
 * POST /api/option/rest_model_ratio and the console's reset button: ModelRatio goes back to the
 * built-in table. Only ModelRatio, as in the reference (its ResetModelRatio writes that one key):
 * an operator's fixed prices and completion ratios are deliberate and survive (decision 016).
 */
export function resetModelRatio(): Promise<Result> {
  return saveOption("ModelRatio", getOptionDef("ModelRatio")!.default);
}
