// Integration and browser tests start servers and Chromium: a generous limit for each test and hook.
jest.setTimeout(90000);
