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
  // One worker a core: a test waits on the sandbox, Chromium and the emulator's HTTP thread as much as it computes.
  maxWorkers: '100%',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  globalSetup: '<rootDir>/test/setup/generated.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup/timeouts.js'],
    },
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
      // One Chromium for the run's browser suites (started only when one of them runs).
      globalSetup: '<rootDir>/test/setup/shared-browser.js',
      globalTeardown: '<rootDir>/test/setup/shared-browser-teardown.js',
      setupFilesAfterEnv: ['<rootDir>/test/setup/timeouts.js'],
    },
  ],
};
