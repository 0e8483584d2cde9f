// Types of the part of tr46 6.0.0 (UTS #46 processing) that src/shared/domain/domain.ts uses; the package ships none.
declare module 'tr46' {
  export interface Uts46ToAsciiOptions {
    checkHyphens?: boolean;
    checkBidi?: boolean;
    checkJoiners?: boolean;
    useSTD3ASCIIRules?: boolean;
    transitionalProcessing?: boolean;
    verifyDNSLength?: boolean;
    ignoreInvalidPunycode?: boolean;
  }
  /** The domain name mapped, normalized and punycode-encoded, or null when UTS #46 processing reports an error. */
  export function toASCII(domainName: string, options?: Uts46ToAsciiOptions): string | null;
}
