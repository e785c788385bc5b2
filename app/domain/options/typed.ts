import { isAllowedLink } from "~/utils/safe-link";
import { getOptionDef, type OptionKey } from "./registry";

/**
 * Typed reads over the string store. JSON values are parsed once per distinct raw string (the
 * relay reads ModelRatio on every request); a stored value that no longer parses falls back to
 * the registered default instead of breaking the caller.
 */
export function createOptionReader(get: (key: OptionKey) => string | undefined) {
  const parsedJson = new Map<OptionKey, { raw: string; value: unknown }>();
  const raw = (key: OptionKey) => get(key) ?? getOptionDef(key)?.default ?? "";
  const fallbackNumber = (key: OptionKey) => Number(getOptionDef(key)?.default ?? 0) || 0;
  return {
    bool: (key: OptionKey): boolean => raw(key) === "true",
    int: (key: OptionKey): number => {
      const n = Number.parseInt(raw(key), 10);
      return Number.isFinite(n) ? n : fallbackNumber(key);
    },
    float: (key: OptionKey): number => {
      const n = Number(raw(key));
      return Number.isFinite(n) ? n : fallbackNumber(key);
    },
    string: (key: OptionKey): string => raw(key),
    /**
     * A link option as it may be rendered (an href, an image source): "" unless it is what the
     * option accepts today. A value saved before the rule, or broadcast by a node running older
     * code, never reaches a page as `javascript:`.
     */
    link: (key: OptionKey): string => {
      const value = raw(key).trim();
      return value && isAllowedLink(value, getOptionDef(key)?.sitePath) ? value : "";
    },
    json: <T>(key: OptionKey): T => {
      const text = raw(key);
      const cached = parsedJson.get(key);
      if (cached && cached.raw === text) return cached.value as T;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = JSON.parse(getOptionDef(key)?.default ?? "null");
      }
      parsedJson.set(key, { raw: text, value });
      return value as T;
    },
  };
}
