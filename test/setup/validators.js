// Jest's global set-up: generates the add-in's precompiled JSON Schema validators (build/validators.js), which the
// unit tests import from src/ as the bundle does, so `npx jest` works without a build first.
const { writeValidators } = require('../../build/validators');

module.exports = async () => {
  writeValidators();
};
