import { ChannelConfigError } from "../types";

/** The fields of a Google service-account key (the JSON downloaded from the console) the gateway uses. */
export type ServiceAccount = {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
  projectId: string;
};

const DEFAULT_TOKEN_URI = "https://oauth2.googleapis.com/token";

// Parsed once per key text: the JSON (~2 KB with its PEM) is the same on every request of a channel.
const parsedKeys = new Map<string, ServiceAccount>();

/** The channel key as a service account, memoised (see parseServiceAccount). */
export function serviceAccountOf(key: string): ServiceAccount {
  let account = parsedKeys.get(key);
  if (!account) {
    account = parseServiceAccount(key);
    if (parsedKeys.size >= 1_000) parsedKeys.clear();
    parsedKeys.set(key, account);
  }
  return account;
}

/** The channel key as a service account; a key that is not one is the channel's misconfiguration (next channel tried). */
export function parseServiceAccount(key: string): ServiceAccount {
  let json: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(key);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    json = parsed as Record<string, unknown>;
  } catch {
    throw new ChannelConfigError("Vertex AI 渠道密钥不是服务账号 JSON");
  }
  const text = (name: string) => (typeof json[name] === "string" ? (json[name] as string).trim() : "");
  const account = {
    clientEmail: text("client_email"),
    privateKey: text("private_key"),
    privateKeyId: text("private_key_id") || undefined,
    tokenUri: text("token_uri") || DEFAULT_TOKEN_URI,
    projectId: text("project_id"),
  };
  const missing = (["client_email", "private_key", "project_id"] as const).filter((name) => !text(name));
  if (missing.length) throw new ChannelConfigError(`Vertex AI 服务账号 JSON 缺少 ${missing.join("、")}`);
  return account;
}

/**
 * The channel's region for a model: `other` is either a plain region or JSON `{default, <model>: region}`
 * (catalogue defaultOther; the model named as mapped or by its alias, e.g. Vertex's `@` form);
 * us-central1 when empty. The region becomes part of a hostname, so
 * anything but a region name is refused.
 */
export function vertexRegion(other: string, model: string, alias = model): string {
  const text = other.trim();
  let region = text;
  if (text.startsWith("{")) {
    let map: Record<string, unknown>;
    try {
      map = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ChannelConfigError("Vertex AI 部署地区 JSON 无效");
    }
    const chosen = Object.hasOwn(map, model) ? map[model] : Object.hasOwn(map, alias) ? map[alias] : map.default;
    region = typeof chosen === "string" ? chosen.trim() : "";
  }
  region ||= "us-central1";
  if (!/^[a-z0-9-]+$/.test(region)) throw new ChannelConfigError(`Vertex AI 部署地区无效：${region}`);
  return region;
}
