// ESLint (flat config) for the browser app, the service worker and the JS tests:
// `make lint-js` (part of `make lint` and `make test`).  ESLint's recommended
// rules plus a few that catch real mistakes; formatting is not linted here.
import js from "@eslint/js";
import globals from "globals";

const rules = {
  ...js.configs.recommended.rules,
  eqeqeq: ["error", "always"],
  "no-var": "error",
  "prefer-const": "error",
  "no-shadow": "error",
  "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
};

export default [
  {
    ignores: ["static/vendor/**", "node_modules/**", "build/**", "dist/**", ".venv*/**", "test-results/**"],
  },
  {
    // The page's modules.
    files: ["static/js/**/*.js"],
    ignores: ["static/js/worker*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules,
  },
  {
    // The solver worker: a module worker.
    files: ["static/js/worker*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.worker },
    rules,
  },
  {
    // protocol.js is imported by both sides; board.js and share.js by the Node tests too.
    files: ["static/js/protocol.js"],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    // The service worker: a classic script.
    files: ["sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
    rules,
  },
  {
    // Node: the unit tests, this file, bench and tools scripts.
    files: ["tests/js/**/*.mjs", "eslint.config.js", "bench/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules,
  },
];
