import { CHANNEL_TYPE_TABLE, type ChannelTypeInfo } from "./catalog-data";
import { CHANNEL_TYPE } from "./channel-types";

export type { ChannelTypeInfo } from "./catalog-data";

const byType = new Map(CHANNEL_TYPE_TABLE.map((t) => [t.type, t]));

export function getChannelType(type: number): ChannelTypeInfo | undefined {
  return byType.get(type);
}

export function channelTypeName(type: number): string {
  return byType.get(type)?.name ?? "未知类型";
}

/** Types an operator can pick (0 only describes rows of unknown origin). */
export const SELECTABLE_CHANNEL_TYPES = CHANNEL_TYPE_TABLE.filter((t) => t.type !== CHANNEL_TYPE.unknown);

/**
 * Types whose host is not a base URL: Spark (18) and AWS (33) derive it from the model and the
 * region in the key, Vertex (41) from the region in `other`. A base URL, when set, still wins.
 */
const SELF_ADDRESSED_TYPES = new Set<number>([CHANNEL_TYPE.xunfei, CHANNEL_TYPE.aws, CHANNEL_TYPE.vertexAi]);

/**
 * Whether a channel of this type must name its own host: it has no catalogue default (Azure,
 * custom, Xinference, Midjourney, Suno…). Such a channel without one would have nowhere to go,
 * and falling back to another provider's host would send its key there.
 */
export function requiresBaseUrl(type: number): boolean {
  const info = byType.get(type);
  return !!info && !info.defaultBaseUrl && !SELF_ADDRESSED_TYPES.has(type);
}

export const BASE_URL_REQUIRED_MESSAGE = "该渠道类型必须填写 Base URL";

/** A Chinese message when one key does not fit its type's format, else undefined. */
export function validateChannelKey(type: number, key: string): string | undefined {
  const info = byType.get(type);
  if (!info) return "未知的渠道类型";
  if (type === CHANNEL_TYPE.vertexAi) {
    try {
      const parsed = JSON.parse(key) as Record<string, unknown>;
      if (typeof parsed.client_email !== "string" || typeof parsed.private_key !== "string")
        return "Vertex AI 密钥必须是包含 client_email 与 private_key 的服务账号 JSON";
      return undefined;
    } catch {
      return "Vertex AI 密钥必须是合法的服务账号 JSON";
    }
  }
  if (info.keyParts) {
    const parts = key.split(info.keyParts.separator);
    if (parts.length !== info.keyParts.count || parts.some((p) => !p.trim()))
      return `密钥格式错误，应为 ${info.keyHint}`;
  }
  return undefined;
}

/** Batch create: one key per non-blank line; a Vertex service-account JSON is one key whole. */
export function splitChannelKeys(type: number, keyText: string): string[] {
  if (type === CHANNEL_TYPE.vertexAi) return keyText.trim() ? [keyText.trim()] : [];
  return keyText
    .split(/\r?\n/)
    .map((k) => k.trim())
    .filter(Boolean);
}

/** GET /api/models: channel type → its default models. */
export function modelsByType(): Record<string, string[]> {
  return Object.fromEntries(
    CHANNEL_TYPE_TABLE.filter((t) => t.type !== CHANNEL_TYPE.unknown).map((t) => [
      String(t.type),
      [...t.defaultModels],
    ]),
  );
}

export function allCatalogModels(): string[] {
  return [...new Set(CHANNEL_TYPE_TABLE.flatMap((t) => t.defaultModels))].sort();
}
