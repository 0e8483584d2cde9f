// Text processing shared by search ranking, lookalike similarity and the research planner:
// tokenizing, stop words and a light suffix stemmer (the same on the index side and the query side).

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so some such than that the their them then there these they this those to ' +
    'us was we were what when where which who whom why will with you your about also any all more most other ' +
    'over very just like want need get give tell show find please'
  ).split(' '),
);

/** Light stemmer: folds common English plural and verb endings so "platforms" matches "platform". */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 6 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 5 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Lower-cased word tokens (letters and digits, any script), stop words kept. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Content terms: words minus stop words, stemmed. */
export function contentTerms(text: string): string[] {
  return words(text)
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem);
}
