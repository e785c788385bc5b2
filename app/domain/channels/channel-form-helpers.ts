// Channel-form helpers, kept free of zod so the form does not ship a schema library to the browser.

/** The product's templates for the mapping fields. */
export const MODEL_MAPPING_TEMPLATE = JSON.stringify(
  { "gpt-3.5-turbo-0301": "gpt-3.5-turbo", "gpt-4-0314": "gpt-4", "gpt-4-32k-0314": "gpt-4-32k" },
  null,
  2,
);
export const STATUS_CODE_MAPPING_TEMPLATE = JSON.stringify({ 400: "500" }, null, 2);

/** Adds comma/newline separated custom models; reports whether any was already present. */
export function mergeCustomModels(current: string[], custom: string): { models: string[]; duplicate: boolean } {
  const wanted = custom
    .split(/[,\n]/)
    .map((m) => m.trim())
    .filter(Boolean);
  const models = [...current];
  let duplicate = false;
  for (const model of wanted) {
    if (models.includes(model)) duplicate = true;
    else models.push(model);
  }
  return { models, duplicate };
}
