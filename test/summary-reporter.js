// Prints the closing line CI reads, "N passed, N failed" (plus skipped when any), as the very last line of the run:
// jest's own summary goes to stderr after onRunComplete, so the line is written when the process exits.
module.exports = class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
};
