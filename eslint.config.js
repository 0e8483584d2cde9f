// Lint rules for server, sidebar, dev tools and tests.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const globals = require('globals');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/e2e/artifacts/**', 'coverage/**'] },
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
  { files: ['sidebar/**', 'dev/playground/page/**', 'dev/playground/gas-shim.js'], languageOptions: { globals: { ...globals.browser } } },
);
