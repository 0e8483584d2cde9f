// The e2e project's global tear-down: stops the Chromium shared-browser.js started for the run.
module.exports = require('./shared-browser').stopSharedBrowser;
