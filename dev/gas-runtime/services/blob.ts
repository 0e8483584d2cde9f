// Blob (Utilities.newBlob, HTTPResponse.getBlob) and the signed-byte conventions of Apps Script:
// byte arrays handed to scripts hold Java bytes (-128..127).
import type { Execution } from '../execution';
import type { FacadeClass } from '../realm';

/** Uint8 data to Apps Script's signed bytes. */
export function toSignedBytes(data: Uint8Array): number[] {
  return Array.from(new Int8Array(data.buffer, data.byteOffset, data.byteLength));
}

/** Apps Script bytes (signed or unsigned numbers) to Uint8 data. */
export function toByteArray(bytes: ArrayLike<unknown>): Uint8Array {
  return Uint8Array.from(Array.from(bytes, (b) => Number(b) & 0xff));
}

export class BlobImpl {
  constructor(
    /** Unsigned bytes. */
    public bytes: number[],
    public contentType: string | null,
    public name: string | null,
  ) {}

  static fromString(text: string, contentType: string | null, name: string | null): BlobImpl {
    return new BlobImpl(Array.from(Buffer.from(text, 'utf8')), contentType, name);
  }
}

export function blobFacadeClass(exec: Execution): FacadeClass<BlobImpl> {
  const Blob: FacadeClass<BlobImpl> = exec.define<BlobImpl>('Blob', {
    getBytes() {
      return toSignedBytes(Uint8Array.from(this.bytes));
    },
    getDataAsString(charset?: string) {
      return new TextDecoder(charset ? String(charset) : 'utf-8').decode(Uint8Array.from(this.bytes));
    },
    setDataFromString(text: string) {
      this.bytes = Array.from(Buffer.from(String(text), 'utf8'));
      return Blob.wrap(this);
    },
    setBytes(bytes: number[]) {
      this.bytes = Array.from(toByteArray(bytes));
      return Blob.wrap(this);
    },
    getContentType() {
      return this.contentType;
    },
    setContentType(contentType: string) {
      this.contentType = String(contentType);
      return Blob.wrap(this);
    },
    getName() {
      return this.name;
    },
    setName(name: string) {
      this.name = String(name);
      return Blob.wrap(this);
    },
    copyBlob() {
      return Blob.wrap(new BlobImpl([...this.bytes], this.contentType, this.name));
    },
    getAs(contentType: string) {
      return Blob.wrap(new BlobImpl([...this.bytes], String(contentType), this.name));
    },
    isGoogleType() {
      return false;
    },
  });
  return Blob;
}
