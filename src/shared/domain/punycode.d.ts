// Types of the part of punycode 2.3.1 (RFC 3492) that src/shared/domain/packed-data.ts uses; the package ships none.
// Required as 'punycode/', as tr46 requires it, so that the bundle holds one copy (and Node's own deprecated module is
// not meant).
declare module 'punycode/' {
  /** A label's Unicode text as its Punycode form (without the `xn--` prefix). */
  export function encode(input: string): string;
}
