import type { PageText } from "~/components/i18n/locale-context";

/** A character no page text holds: it marks where an element goes inside a translated sentence. */
const SLOT = "\u0000";

/**
 * A sentence with one element inside it (a `<code>`, a word to be typed as it is), as the text
 * before and after that element. The key marks the element's place with `{{name}}`: languages
 * put it in different places, so the sentence cannot be cut into keys of its own.
 */
export function textAround(t: PageText, key: string, name: string): [string, string] {
  const [before = "", after = ""] = t(key, { [name]: SLOT }).split(SLOT);
  return [before, after];
}
