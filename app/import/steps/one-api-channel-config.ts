/**
 * one-api keeps a channel's extra settings in its `config` JSON (`region`, `ak`, `sk`, `user_id`,
 * `api_version`, `plugin`, `vertex_ai_project_id`, `vertex_ai_adc`); new-api and Switchyard keep
 * them in `other` (and AWS's credentials in the key as `Ak|Sk|Region`). This reads them across.
 */
export function otherFromOneApiConfig(
  targetType: number,
  configText: string,
  key: string,
): { other?: string; key?: string; notes: string[] } {
  const notes: string[] = [];
  if (!configText.trim()) return { notes };
  let config: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(configText);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      return { notes: ["config is not a JSON object: ignored"] };
    config = parsed as Record<string, unknown>;
  } catch {
    return { notes: ["config is not JSON: ignored"] };
  }
  const text = (name: string) => (typeof config[name] === "string" ? (config[name] as string).trim() : "");
  switch (targetType) {
    case 3: // Azure: the API version
    case 18: // Xunfei: the API version
    case 24: // Gemini: the API version
      return text("api_version") ? { other: text("api_version"), notes } : { notes };
    case 17: // Ali: the plugin
      return text("plugin") ? { other: text("plugin"), notes } : { notes };
    case 39: // Cloudflare: the account id
      return text("user_id") ? { other: text("user_id"), notes } : { notes };
    case 33: {
      // AWS: one-api keeps the credentials in config; Switchyard wants them as the key.
      if (key.includes("|") || !text("ak") || !text("sk")) return { notes };
      notes.push("AWS credentials moved from config into the key as Ak|Sk|Region");
      return { key: `${text("ak")}|${text("sk")}|${text("region") || "us-east-1"}`, notes };
    }
    case 41: {
      // Vertex AI: the service-account JSON is the key, the regions a JSON map with a default.
      const adc = text("vertex_ai_adc");
      if (adc) notes.push("Vertex AI service-account JSON moved from config into the key");
      return {
        key: adc || undefined,
        other: text("region") ? JSON.stringify({ default: text("region") }) : undefined,
        notes,
      };
    }
    default:
      return { notes };
  }
}
