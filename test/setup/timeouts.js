// Integration and browser tests start servers and Chromium, property tests run many cases, and the suite runs a worker
// a core: a generous limit for each test and hook, so that a slower or busier machine makes the suite slower, never red.
jest.setTimeout(180000);
