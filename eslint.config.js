// ESLint for the phone app (static/js: native ES modules run by the browser and its workers) and
// its unit tests (tests/js, run by node --test). Run by ./scripts/check: npx eslint static/js tests/js
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    // the workers run in a worker scope (self, importScripts...), not a page
    files: ["static/js/**/*-worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "no-shadow-restricted-names": "error",
      "no-var": "error",
      "prefer-const": ["error", { destructuring: "all" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-globals": "error",
    },
  },
];
