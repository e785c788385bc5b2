import type { Token, User } from "../../db/schema";
import { userUsableGroups } from "~/domain/groups/groups.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import type { TokenContext } from "./auth/token-auth.server";
import { newRequestId } from "./errors.server";
import { relay } from "./pipeline.server";
import { localFailure, type RelayFailure } from "./relay-error";
import type { ReplySink } from "./reply-sink";
import { checkRelayFields } from "./request-parse";

/**
 * The playground calls the relay as the signed-in user, without a token: only the user's quota
 * limits it, and its usage is logged under the token name `playground-<group>`, as the reference logs it.
 */
function playgroundToken(user: User, group: string): TokenContext {
  const token: Token = {
    id: 0,
    user_id: user.id,
    key_hash: "",
    key_encrypted: "",
    key_hint: "",
    status: TOKEN_STATUS.enabled,
    name: `playground-${group}`,
    created_time: 0,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: 0,
    leased: 0,
    unlimited_quota: true,
    model_limits_enabled: false,
    model_limits: "",
    allow_ips: "",
    used_quota: 0,
    group,
    deleted_at: null,
    rpm_limit: 0,
    tpm_limit: 0,
  };
  return {
    token,
    keyHash: "",
    allowRanges: [],
    modelLimits: new Set(),
    user: {
      id: user.id,
      username: user.username,
      role: user.role,
      status: user.status,
      group: user.group,
      deleted: false,
    },
    loadedAt: Date.now(),
  };
}

export async function playgroundRelay(
  user: User,
  body: Record<string, unknown>,
  sink: ReplySink,
): Promise<RelayFailure | undefined> {
  const group = typeof body.group === "string" && body.group ? body.group : user.group;
  if (!(group in userUsableGroups(user))) return localFailure(403, `无权使用分组 ${group}`, "group_forbidden");
  const { group: _group, ...request } = body;
  const invalid = checkRelayFields(request, "chat");
  if (invalid) return invalid;
  return relay(
    {
      token: playgroundToken(user, group),
      mode: "chat",
      path: "/v1/chat/completions",
      body: request,
      requestId: newRequestId(),
      startedAt: Date.now(),
    },
    sink,
  );
}

export function relayErrorBody(failure: RelayFailure) {
  return { error: { message: failure.message, type: failure.type, param: null, code: failure.code } };
}
