import type { PageText } from "~/components/i18n/locale-context";
import type { FormConstraint, ValidityMessages } from "~/web/form-constraint";

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

/**
 * A form's constraints with the server's refusals (the browser shows them instead of its own
 * wording) read in the reader's language: they come in the loader's data, which stays Chinese.
 */
export function constraintInLanguage(constraint: FormConstraint, message: (text: string) => string): FormConstraint {
  return Object.fromEntries(
    Object.entries(constraint).map(([name, field]) => {
      if (!field.messages) return [name, field];
      const messages: ValidityMessages = Object.fromEntries(Object.entries(field.messages).map(([flag, text]) => [flag, text === undefined ? text : message(text)]));
      return [name, { ...field, messages }];
    }),
  );
}
