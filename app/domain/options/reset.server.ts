import { getOptionDef } from "./registry";
import { saveOption, type OptionSaveResult } from "./store.server";

/**
 * POST /api/option/rest_model_ratio and the console's reset button: ModelRatio goes back to the
 * built-in table. Only ModelRatio, as in the reference (its ResetModelRatio writes that one key):
 * an operator's fixed prices and completion ratios are deliberate and survive (decision 016).
 */
export function resetModelRatio(): Promise<OptionSaveResult> {
  return saveOption("ModelRatio", getOptionDef("ModelRatio")!.default);
}
