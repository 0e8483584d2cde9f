// Runs of adjacent numbers (columns of a row, rows of a table): what one range write can cover. The one
// implementation the enrichment's cell writes and the enrichment dates' writes share. Pure.

/** Groups numbers (in any order, repeats allowed) into runs of adjacent ones, lowest first. */
export function adjacentRuns(numbers: number[]): Array<{ first: number; count: number }> {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: Array<{ first: number; count: number }> = [];
  for (const n of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.first + last.count === n) last.count++;
    else runs.push({ first: n, count: 1 });
  }
  return runs;
}
