import type { z } from "zod";
import type { FieldConstraint, ValidityMessages } from "./form-constraint";

/** Marks a message zod made up itself (English, generic): only the schema's own words are kept. */
const ZOD_DEFAULT = "\u0000zod-default";

type Probe = { key: keyof ValidityMessages; value: string | undefined; codes: readonly string[] };

/**
 * The value that breaks each HTML constraint the browser checks, as the form would post it. An
 * empty field is posted as absent (conform drops empty strings), so valueMissing probes both.
 */
function probes(constraint: FieldConstraint): Probe[] {
  const out: Probe[] = [];
  if (constraint.required)
    out.push(
      { key: "valueMissing", value: undefined, codes: ["invalid_type", "too_small"] },
      { key: "valueMissing", value: "", codes: ["too_small"] },
    );
  if (constraint.minLength !== undefined && constraint.minLength > 1)
    out.push({ key: "tooShort", value: "a".repeat(constraint.minLength - 1), codes: ["too_small"] });
  if (constraint.min !== undefined)
    out.push({ key: "rangeUnderflow", value: String(constraint.min - (constraint.step ?? 1)), codes: ["too_small"] });
  if (constraint.max !== undefined)
    out.push({ key: "rangeOverflow", value: String(constraint.max + (constraint.step ?? 1)), codes: ["too_big"] });
  return out;
}

/** What the schema says about `name` holding `value` (the other fields absent), if it says it in its own words. */
function schemaMessage(schema: z.ZodType, name: string, probe: Probe): string | undefined {
  let result: ReturnType<z.ZodType["safeParse"]>;
  try {
    // A per-parse error map ranks below the schema's own messages, so it fills in only the defaults.
    result = schema.safeParse(probe.value === undefined ? {} : { [name]: probe.value }, { error: () => ZOD_DEFAULT });
  } catch {
    // An async refinement cannot be probed synchronously: the browser's own wording stays.
    return undefined;
  }
  if (result.success) return undefined;
  const issue = result.error.issues.find(
    (i) => i.path.length === 1 && i.path[0] === name && probe.codes.includes(i.code),
  );
  return issue && issue.message !== ZOD_DEFAULT ? issue.message : undefined;
}

/**
 * For each constraint of a field, the message the server gives when it is broken: the browser
 * shows it instead of its own (with the enhancement script), so the bubble and the server's
 * reply say the same thing, in the spec's words. Constraints whose schema message is zod's
 * generic default get none.
 */
export function validityMessages(
  schema: z.ZodType,
  name: string,
  constraint: FieldConstraint,
): ValidityMessages | undefined {
  const found: ValidityMessages = {};
  for (const probe of probes(constraint)) {
    if (found[probe.key]) continue;
    const message = schemaMessage(schema, name, probe);
    if (message) found[probe.key] = message;
  }
  return Object.keys(found).length ? found : undefined;
}
