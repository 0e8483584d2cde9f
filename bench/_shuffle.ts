// Deterministic shuffle (LCG) for benchmarks, so every run uses the same sheets. Files starting with `_` are helpers,
// not benchmarks (bench/run.ts skips them).

export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
