// Lint rules for server, sidebar, dev tools and tests.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const globals = require('globals');

// Apps Script's global services: only adapters name them: src/platform/ (the generic ones), a feature's adapters/ folder
// (its own ports over Apps Script) and src/main.ts, which wires the globals.
const APPS_SCRIPT_SERVICES = [
  'SpreadsheetApp',
  'HtmlService',
  'PropertiesService',
  'CacheService',
  'LockService',
  'UrlFetchApp',
  'Utilities',
  'ScriptApp',
  'Session',
  'Logger',
  'DriveApp',
  'Browser',
];

module.exports = tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'test/e2e/artifacts/**', 'coverage/**', 'src/shared/generated/*.js'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  { files: ['test/setup/timeouts.js'], languageOptions: { globals: { ...globals.jest } } },
  // One concern a file, one step a function: a module past 350 lines or a function past 80 (blank lines and comments
  // counted) is split by concern.
  {
    files: ['src/**/*.ts', 'sidebar/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 350 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/**', 'src/*/adapters/**', 'src/main.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...APPS_SCRIPT_SERVICES.map((name) => ({
          name,
          message: "Apps Script services are reached through adapters: src/platform/ or the feature's adapters/.",
        })),
      ],
    },
  },
  {
    files: ['sidebar/**', 'dev/playground/page/**', 'dev/playground/gas-shim.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The panels see the server only through each feature's contract.ts, the service's wire types and the typed map
    // of server functions (type-only: the bridge).
    files: ['sidebar/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!api/types$|[a-z-]+/contract$|server-functions$)',
              message: "The sidebar imports from src/ only a feature's contract.ts and src/api/types.",
            },
          ],
        },
      ],
    },
  },
);
