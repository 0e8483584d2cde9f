// Jest projects: unit (pure logic), integration (built bundle + emulator + sandbox over HTTP), e2e (Chromium).
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(marked|minisearch|tldts)/)'],
};
module.exports = {
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  globalSetup: '<rootDir>/test/setup/generated.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup/timeouts.js'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup/timeouts.js'],
    },
  ],
};
