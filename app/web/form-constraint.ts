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
};

export type FormConstraint = Record<string, FieldConstraint>;

/** The attributes of one field of a plain (non-conform) form; conform's getInputProps does the same from useForm's `constraint`. */
export function constraintProps(constraint: FormConstraint | undefined, name: string): FieldConstraint {
  const field = constraint?.[name];
  if (!field) return {};
  const props: FieldConstraint = {};
  for (const [key, value] of Object.entries(field) as [keyof FieldConstraint, FieldConstraint[keyof FieldConstraint]][]) {
    // `required: false` and absent bounds are left off rather than rendered as attributes.
    if (value !== undefined && value !== false) (props as Record<string, unknown>)[key] = value;
  }
  return props;
}
