/**
 * A form's HTML constraints (required, minlength, maxlength, min, max, step, pattern), by field
 * name: computed on the server from the zod schema its action parses (form-constraint.server.ts)
 * and sent to the page as plain JSON, so the browser refuses an obviously bad value before
 * posting and no validation library is shipped to it. The server stays the authority.
 */
export type FieldConstraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number;
  multiple?: boolean;
  pattern?: string;
  /** The server's own message for each broken constraint (validity-messages.server.ts); not an attribute. */
  messages?: ValidityMessages;
};

/** Messages by the name of the ValidityState flag they replace the browser's wording for. */
export type ValidityMessages = Partial<
  Record<
    "valueMissing" | "tooShort" | "tooLong" | "rangeUnderflow" | "rangeOverflow" | "patternMismatch" | "typeMismatch",
    string
  >
>;

export type FormConstraint = Record<string, FieldConstraint>;

type ConstraintAttributes = Omit<FieldConstraint, "messages"> & { "data-validity-messages"?: string };

/**
 * The attribute that gives one control the server's wording for its constraints: the
 * enhancement script (enhance-validity.js) sets it as the control's validation message.
 */
export function validityMessagesProp(messages: ValidityMessages | undefined): { "data-validity-messages"?: string } {
  return messages && Object.keys(messages).length ? { "data-validity-messages": JSON.stringify(messages) } : {};
}

/**
 * The same for every control of a form at once, by field name: for conform forms, whose
 * getInputProps renders the constraints but knows nothing of messages.
 */
export function formValidityMessagesProp(constraint: FormConstraint | undefined): {
  "data-validity-messages"?: string;
} {
  const byField = Object.fromEntries(
    Object.entries(constraint ?? {}).flatMap(([name, field]) => (field.messages ? [[name, field.messages]] : [])),
  );
  return Object.keys(byField).length ? { "data-validity-messages": JSON.stringify(byField) } : {};
}

/** The attributes of one field of a plain (non-conform) form; conform's getInputProps does the same from useForm's `constraint`. */
export function constraintProps(constraint: FormConstraint | undefined, name: string): ConstraintAttributes {
  const field = constraint?.[name];
  if (!field) return {};
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(field)) {
    // `required: false` and absent bounds are left off rather than rendered as attributes.
    if (key !== "messages" && value !== undefined && value !== false) props[key] = value;
  }
  return { ...props, ...validityMessagesProp(field.messages) };
}
