import type { ForkInfo, SourceDb } from "./types";

/**
 * Which project and roughly which version wrote the source, judged by the columns present (their
 * databases carry no version number before new-api's later `setups` table). The evidence goes in
 * the report so an operator can check the guess.
 */
export async function detectFork(source: SourceDb): Promise<ForkInfo> {
  const tables = new Set(await source.tables());
  for (const needed of ["users", "tokens", "channels", "options"]) {
    if (!tables.has(needed))
      throw new Error(`${source.label} is not a new-api or one-api database: it has no ${needed} table`);
  }
  const users = new Set(await source.columns("users"));
  const tokens = new Set(await source.columns("tokens"));
  const channels = new Set(await source.columns("channels"));
  const logs = new Set(tables.has("logs") ? await source.columns("logs") : []);
  const evidence: string[] = [];

  // one-api's tokens keep model limits in `models` and the allow-list in `subnet`; new-api
  // renamed them `model_limits` / `allow_ips` and added `model_limits_enabled`.
  const oneApi =
    !tokens.has("model_limits_enabled") && (tokens.has("models") || tokens.has("subnet") || channels.has("config"));
  if (oneApi) {
    if (tokens.has("models")) evidence.push("tokens.models");
    if (tokens.has("subnet")) evidence.push("tokens.subnet");
    if (channels.has("config")) evidence.push("channels.config");
    return { fork: "one-api", version: channels.has("system_prompt") ? "v0.6.10 or later" : "v0.6.x", evidence };
  }

  const later = [
    channels.has("tag") && "channels.tag",
    users.has("setting") && "users.setting",
    logs.has("group") && "logs.group",
    channels.has("param_override") && "channels.param_override",
    tables.has("setups") && "setups table",
  ].filter((x): x is string => Boolean(x));
  if (tokens.has("model_limits_enabled")) evidence.push("tokens.model_limits_enabled");
  evidence.push(...later);
  return {
    fork: "new-api",
    version: later.length ? `later than v0.3.0.2 (${later.join(", ")})` : "v0.3.0.x",
    evidence,
  };
}
