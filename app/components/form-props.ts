import { getFormProps, type FormMetadata } from "@conform-to/react";
import { formValidityMessagesProp, type FormConstraint, type ValidityMessages } from "~/web/form-constraint";

/**
 * conform's form props, with the browser's own validation left on. conform renders `novalidate`
 * (it expects to validate in script itself); these forms have no validation in script: the
 * browser checks the fields' constraints (from the zod schema, see web/form-constraint.ts)
 * before posting, with or without hydration, and the server validates again. Buttons that must
 * post whatever is typed (conform's intent buttons, helper buttons) carry `formNoValidate`.
 * The constraint's messages go on the form, for the browser to word its refusals as the server
 * does (app/enhance/enhance-validity.js), in the reader's language: pass `useMessage()`.
 */
export function browserCheckedFormProps<Schema extends Record<string, unknown>>(
  form: FormMetadata<Schema, string[]>,
  constraint: FormConstraint | undefined,
  message: (text: string) => string,
) {
  return {
    ...getFormProps(form),
    noValidate: false,
    ...formValidityMessagesProp(constraint && constraintInLanguage(constraint, message)),
  };
}

/**
 * A form's constraints with the server's refusals (the browser shows them instead of its own
 * wording) read in the reader's language: they come in the loader's data, which stays Chinese.
 */
export function constraintInLanguage(constraint: FormConstraint, message: (text: string) => string): FormConstraint {
  return Object.fromEntries(
    Object.entries(constraint).map(([name, field]) => {
      if (!field.messages) return [name, field];
      const messages: ValidityMessages = Object.fromEntries(
        Object.entries(field.messages).map(([flag, text]) => [flag, text === undefined ? text : message(text)]),
      );
      return [name, { ...field, messages }];
    }),
  );
}
