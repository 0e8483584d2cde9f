// Jest's global set-up: generates what the build generates into src/shared/generated/ (the precompiled JSON Schema
// validators, build/validators.js; the packed tr46 and tldts tables, build/packed-data.js), which the unit tests
// import from src/ as the bundle does, so `npx jest` works without a build first. Then the sandbox bundled for the
// test workers (sandbox-bundle.js).
const { writeValidators } = require('../../build/validators');
const { writePackedData } = require('../../build/packed-data');
const { bundleSandbox } = require('./sandbox-bundle');

module.exports = async () => {
  writeValidators();
  await writePackedData();
  await bundleSandbox();
};
