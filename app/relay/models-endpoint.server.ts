import type { ServerResponse } from "node:http";
import type { TokenContext } from "./auth/token-auth.server";
import { resolveGroup } from "./auth/token-auth.server";
import { sendJson } from "./http.server";
import { modelsForGroup } from "./routing/channel-cache.server";
import type { RelayFailure } from "./relay-error";
import { localFailure } from "./relay-error";

const CREATED = 1626777600;

/** `/v1/models`: the token's model limits when enabled, else what its group can reach. */
export async function listTokenModels(token: TokenContext): Promise<string[] | RelayFailure> {
  if (token.token.model_limits_enabled) return [...token.modelLimits].sort();
  const group = resolveGroup(token);
  if (typeof group !== "string") return group;
  return modelsForGroup(group);
}

const modelObject = (id: string) => ({ id, object: "model", created: CREATED, owned_by: "switchyard" });

export async function sendModels(
  token: TokenContext,
  res: ServerResponse,
  requestId: string,
  single?: string,
): Promise<RelayFailure | undefined> {
  const models = await listTokenModels(token);
  if (!Array.isArray(models)) return models;
  if (single !== undefined) {
    if (!models.includes(single))
      return localFailure(404, `The model '${single}' does not exist`, "model_not_found", "invalid_request_error");
    sendJson(res, 200, modelObject(single), { "X-Oneapi-Request-Id": requestId });
    return undefined;
  }
  sendJson(res, 200, { object: "list", data: models.map(modelObject) }, { "X-Oneapi-Request-Id": requestId });
  return undefined;
}
