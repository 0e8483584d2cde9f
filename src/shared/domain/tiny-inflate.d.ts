// Types of tiny-inflate 1.0.3 (raw DEFLATE decompression), used by src/shared/domain/packed-data.ts; the package ships none.
declare module 'tiny-inflate' {
  /** Inflates raw DEFLATE `source` into `dest` (sized to the inflated length); returns `dest`. */
  export default function inflate(source: Uint8Array, dest: Uint8Array): Uint8Array;
}
