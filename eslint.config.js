// ESLint (flat config) for the browser app, the service worker, the JS tests and benchmarks:
// `make lint-js` (part of `make lint` and `make test`) lints what the first entry does not ignore.  ESLint's recommended
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
    // Only the app's own JS: vendored, built and Python-side files are not ours to lint here.
    ignores: [
      "**/*",
      "!static/",
      "!static/js/",
      "!static/js/**/",
      "!static/js/**/*.js",
      "!sw.js",
      "!examples/",
      "!examples/*.js",
      "!tests/",
      "!tests/js/",
      "!tests/js/*.mjs",
      "!tests/e2e/",
      "!tests/e2e/*.mjs",
      "!bench/",
      "!bench/*.mjs",
      "!bench/fixtures/",
      "!bench/fixtures/**/",
      "!bench/fixtures/**/*.js",
      "!bench/fixtures/**/*.mjs",
      "!eslint.config.js",
    ],
  },
  {
    // The page's modules, and the embedding example's (examples/embed.js).
    files: ["static/js/**/*.js", "examples/*.js"],
    ignores: ["static/js/worker/**"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules,
  },
  {
    // The solver worker: a module worker (another global scope: no DOM).
    files: ["static/js/worker/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.worker },
    rules,
  },
  {
    // solver/protocol.js is imported by both sides; model/board.js and model/share.js by the Node tests too.
    files: ["static/js/solver/protocol.js"],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    // The bare Pyodide page of tools/web_bench.py: its page script and its module worker.
    files: ["bench/fixtures/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules,
  },
  {
    files: ["bench/fixtures/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.worker },
    rules,
  },
  {
    // The service worker: a classic script.
    files: ["sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
    rules,
  },
  {
    // Node: the unit tests, the e2e tests' Firefox driver, the Pyodide benchmarks and this file.
    files: ["tests/js/**/*.mjs", "tests/e2e/*.mjs", "bench/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules,
  },
];
