// Column letters of A1 notation (1 -> A, 26 -> Z, 27 -> AA, 18278 -> ZZZ): the one implementation every module,
// panel, harness and benchmark uses. Pure.

/** The letters of a 1-based column number. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
