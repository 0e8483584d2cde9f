// Jest projects: unit (pure logic), integration (built bundle + emulator + sandbox over HTTP), e2e (Chromium).
const transform = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
const common = { testEnvironment: 'node', transform, transformIgnorePatterns: ['/node_modules/(?!(marked|minisearch)/)'] };
module.exports = {
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
  // Integration and browser tests start servers and Chromium: a generous limit per test and hook (a global option).
  testTimeout: 90000,
};
