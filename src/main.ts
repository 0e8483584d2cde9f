declare const global: Record<string, unknown>;
function double(x: number): number { return x * 2; }
/**
 * Doubles the input.
 * @param {number} x The value to double.
 * @return {number} Twice x.
 * @customfunction
 * @preserve
 */
global.DOUBLE = double;
