import { getFormProps, type FormMetadata } from "@conform-to/react";
import { formValidityMessagesProp, type FormConstraint } from "~/web/form-constraint";

/**
 * conform's form props, with the browser's own validation left on. conform renders `novalidate`
 * (it expects to validate in script itself); these forms have no validation in script: the
 * browser checks the fields' constraints (from the zod schema, see web/form-constraint.ts)
 * before posting, with or without hydration, and the server validates again. Buttons that must
 * post whatever is typed (conform's intent buttons, helper buttons) carry `formNoValidate`.
 * The constraint's messages go on the form, for the browser to word its refusals as the server
 * does (app/enhance/enhance-validity.js).
 */
export function browserCheckedFormProps<Schema extends Record<string, unknown>>(form: FormMetadata<Schema, string[]>, constraint?: FormConstraint) {
  return { ...getFormProps(form), noValidate: false, ...formValidityMessagesProp(constraint) };
}
