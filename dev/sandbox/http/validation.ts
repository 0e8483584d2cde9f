// FastAPI-style validation errors: the issue type of the 422 body ({detail: [{loc, msg, type}]}) and small
// checkers for integers and strings that append precise issues instead of throwing on the first one.

export type Loc = (string | number)[];

export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

/** Thrown by request parsers; the server turns it into a 422 response. */
export class ValidationFailure extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
  }
}

export function issue(loc: Loc, msg: string, type: string): ValidationIssue {
  return { loc, msg, type };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface IntegerBounds {
  min?: number;
  max?: number;
}

/** Checks a JSON value is an integer within bounds; pushes an issue and returns undefined otherwise. */
export function checkInteger(
  value: unknown,
  loc: Loc,
  bounds: IntegerBounds,
  issues: ValidationIssue[],
): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    issues.push(issue(loc, 'Input should be a valid integer', 'int_type'));
    return undefined;
  }
  if (!Number.isInteger(value)) {
    issues.push(issue(loc, 'Input should be a valid integer, got a number with a fractional part', 'int_from_float'));
    return undefined;
  }
  return checkBounds(value, loc, bounds, issues);
}

/** Parses a query-string integer ("25"); pushes an issue and returns undefined when it is not one. */
export function parseQueryInteger(
  raw: string,
  loc: Loc,
  bounds: IntegerBounds,
  issues: ValidationIssue[],
): number | undefined {
  if (!/^[+-]?\d+$/.test(raw.trim())) {
    issues.push(issue(loc, 'Input should be a valid integer, unable to parse string as an integer', 'int_parsing'));
    return undefined;
  }
  return checkBounds(Number(raw), loc, bounds, issues);
}

function checkBounds(value: number, loc: Loc, bounds: IntegerBounds, issues: ValidationIssue[]): number | undefined {
  if (bounds.min !== undefined && value < bounds.min) {
    issues.push(issue(loc, `Input should be greater than or equal to ${bounds.min}`, 'greater_than_equal'));
    return undefined;
  }
  if (bounds.max !== undefined && value > bounds.max) {
    issues.push(issue(loc, `Input should be less than or equal to ${bounds.max}`, 'less_than_equal'));
    return undefined;
  }
  return value;
}

/** Checks a JSON value is a string of at least `minLength` characters (code points). */
export function checkString(
  value: unknown,
  loc: Loc,
  minLength: number,
  issues: ValidationIssue[],
): string | undefined {
  if (typeof value !== 'string') {
    issues.push(issue(loc, 'Input should be a valid string', 'string_type'));
    return undefined;
  }
  if ([...value].length < minLength) {
    issues.push(
      issue(loc, `String should have at least ${minLength} character${minLength === 1 ? '' : 's'}`, 'string_too_short'),
    );
    return undefined;
  }
  return value;
}

export function missing(loc: Loc): ValidationIssue {
  return issue(loc, 'Field required', 'missing');
}
