// Server bundle: src/main.ts -> dist/Code.js, an ES2019 script for Apps Script's V8.
// gas-webpack-plugin turns each `global.NAME = ...` in src/main.ts into a top-level `function NAME() {}` stub
// carrying the assignment's JSDoc (kept through esbuild by its `@preserve` tag; build/build.js removes the tag).
const path = require('path');
const webpack = require('webpack');
const GasPlugin = require('gas-webpack-plugin');
const { urlAllowlistFor } = require('./build/url-allowlist');
const { dashboardUrlFor } = require('./build/dashboard-url');
const { replacementFor } = require('./build/packed-data');

/** Points a request of tr46 or tldts for one of their data files at its packed module (build/packed-data.js). */
function usePackedData(resolveData) {
  const packed = replacementFor(resolveData.context, resolveData.request);
  if (packed) resolveData.request = packed;
}

module.exports = {
  mode: 'production',
  context: __dirname,
  entry: './src/main.ts',
  target: ['web', 'es2019'],
  devtool: false,
  output: { path: path.resolve(__dirname, 'dist'), filename: 'Code.js', clean: false },
  resolve: { extensions: ['.ts', '.js'] },
  // Class fields set by assignment in the constructor (TypeScript's order), not each module's copy of esbuild's
  // define-property helper per field: 3.8 KB of the bundle.
  module: {
    rules: [
      {
        test: /\.[jt]s$/,
        loader: 'esbuild-loader',
        options: { target: 'es2019', tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } } },
      },
    ],
  },
  optimization: { minimize: false },
  // `global` is Apps Script's globalThis: no run-time shim (webpack's would build one with `new Function`).
  node: { global: false },
  performance: { hints: false },
  plugins: [
    new GasPlugin({ comment: true }),
    new webpack.NormalModuleReplacementPlugin(/^\.\/(lib|data)\//, usePackedData),
    // The service's base URL for this deployment (SHEET_SCOUT_BASE_URL=https://... npm run build); users can
    // override it in Settings > Advanced, within the URL allowlist the build writes into appsscript.json from it.
    // Empty: every user enters it once, and any HTTPS address is allowed.
    new webpack.DefinePlugin({
      global: 'globalThis',
      SHEET_SCOUT_DEFAULT_BASE_URL: JSON.stringify(process.env.SHEET_SCOUT_BASE_URL || ''),
      SHEET_SCOUT_URL_ALLOWLIST: JSON.stringify(urlAllowlistFor(process.env.SHEET_SCOUT_BASE_URL)),
      // Where tokens are made and plans upgraded (SHEET_SCOUT_DASHBOARD_URL=https://...): linked from Settings and
      // named in "upgrade on the dashboard" messages; without it neither shows an address.
      SHEET_SCOUT_DASHBOARD_URL: JSON.stringify(dashboardUrlFor(process.env.SHEET_SCOUT_DASHBOARD_URL)),
    }),
  ],
};
