import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "data/**", "node_modules/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  // Layers point down only (docs/architecture.md): nothing in app/ reaches the composition root
  // in server/, and the relay, the domain and utils never reach the web layer or the routes.
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/*", "!~/**"],
              message: "server/ is the composition root: it imports app/, never the other way",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/relay/**", "app/domain/**", "app/utils/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/*", "!~/**"],
              message: "server/ is the composition root: it imports app/, never the other way",
            },
            {
              group: ["~/web/*", "~/routes/*"],
              message: "layers point down only: the web layer and the routes sit above this one",
            },
            {
              group: ["~/components/*"],
              allowTypeImports: true,
              message: "layers point down only: components sit above this one",
            },
          ],
        },
      ],
    },
  },
  // The enhancement script is browser JavaScript that tsc checks (// @ts-check, DOM lib): it
  // knows the browser's globals, which ESLint's no-undef would need listed one by one.
  { files: ["app/enhance/**/*.js"], rules: { "no-undef": "off" } },
);
