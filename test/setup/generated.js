// Jest's global set-up: generates what the build generates into src/shared/generated/ (the precompiled JSON Schema
// validators, build/validators.js; the packed tr46 and tldts tables, build/packed-data.js), which the unit tests
// import from src/ as the bundle does, so `npx jest` works without a build first.
const { writeValidators } = require('../../build/validators');
const { writePackedData } = require('../../build/packed-data');

module.exports = async () => {
  writeValidators();
  await writePackedData();
};
