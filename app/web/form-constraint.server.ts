import { getZodConstraint } from "@conform-to/zod/v4";
import { z } from "zod";
import type { FieldConstraint, FormConstraint } from "./form-constraint";
import { validityMessages } from "./validity-messages.server";

type JsonProperty = {
  type?: string | string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
};

/**
 * A zod regex as an HTML `pattern`. The browser anchors a pattern to the whole value and compiles
 * it with the `v` flag, while zod tests for a match anywhere: wrapped in a lookahead it means the
 * same (conform's serialisation). A regex the `v` flag refuses gets no attribute at all.
 */
function htmlPattern(source: string): string | undefined {
  const pattern = `^(?=.*(?:${source})).*$`;
  try {
    new RegExp(pattern, "v");
    return pattern;
  } catch {
    return undefined;
  }
}

// `.int()` alone bounds a number to the safe-integer range: a representation limit, not a range
// anyone types near, so it is not written into the page.
const bound = (n: number | undefined) => (n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);

function bounds(property: JsonProperty | undefined): FieldConstraint {
  if (!property) return {};
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes("string")) {
    const pattern = property.pattern === undefined ? undefined : htmlPattern(property.pattern);
    return { minLength: property.minLength, maxLength: property.maxLength, pattern };
  }
  if (types.includes("integer")) {
    const min = property.exclusiveMinimum === undefined ? property.minimum : property.exclusiveMinimum + 1;
    const max = property.exclusiveMaximum === undefined ? property.maximum : property.exclusiveMaximum - 1;
    return { min: bound(min), max: bound(max), step: 1 };
  }
  // A strict bound on a fraction has no HTML form; the server says so instead.
  if (types.includes("number")) return { min: bound(property.minimum), max: bound(property.maximum) };
  return {};
}

function withoutUndefined(constraint: FieldConstraint): FieldConstraint {
  return Object.fromEntries(Object.entries(constraint).filter(([, value]) => value !== undefined));
}

/**
 * The HTML constraints of the form a schema parses, as plain JSON for a loader to hand to
 * `useForm({ constraint })` or to `constraintProps`. Computed here so zod never reaches the
 * browser. conform's getZodConstraint tells which fields are required (optional, defaulted and
 * transformed fields are not); since zod 4.6 it no longer sees lengths and ranges (zod stopped
 * recording checks where it reads them), so those come from zod's own JSON Schema of the
 * form's input, which reads the checks themselves. Each field also carries the schema's own
 * message for each constraint, for the browser to show instead of its own wording.
 */
export function formConstraint(schema: z.ZodType): FormConstraint {
  const shape = getZodConstraint(schema);
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonProperty>;
  };
  const out: FormConstraint = {};
  for (const name of Object.keys(shape)) {
    const { required, multiple } = shape[name] ?? {};
    const constraint = withoutUndefined({ required, multiple, ...bounds(json.properties?.[name]) });
    out[name] = withoutUndefined({ ...constraint, messages: validityMessages(schema, name, constraint) });
  }
  return out;
}
