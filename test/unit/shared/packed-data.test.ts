// The packed tr46 and tldts tables the bundle carries (build/packed-data.js -> src/shared/generated/) unpack to
// exactly the packages' own data, entry for entry, so the bundle's UTS #46 processing and public suffix lookups are
// the libraries' own. Also base 93 as the build writes it.
import fc from 'fast-check';
import mappingTable from 'tr46/lib/mappingTable.json';
import { base93Bytes } from '../../../src/shared/domain/packed-data';

const { base93 }: { base93: (bytes: Uint8Array) => string } = require('../../../build/packed-data');

const packedMapping: unknown[] = require('../../../src/shared/generated/uts46-mapping');
const packedRegexes: Record<string, RegExp> = require('../../../src/shared/generated/uts46-regexes');
interface SuffixTrie {
  nodeFlags: Uint8Array;
  edgeStart: Uint16Array;
  edgeLength: Uint8Array;
  edgeChild: Uint16Array;
  labelText: string;
  rulesRoot: number;
  exceptionsRoot: number;
}
const trie: SuffixTrie = require('tldts/dist/es6/src/data/trie.js');
const packedTrie: SuffixTrie = require('../../../src/shared/generated/psl-trie');
const regexes: Record<string, RegExp> = require('tr46/lib/regexes.js');

describe('packed tables', () => {
  it("unpack tr46's UTS #46 mapping table entry for entry", () => {
    expect(packedMapping.length).toBe(mappingTable.length);
    expect(Array.from({ length: packedMapping.length }, (_, i) => packedMapping[i])).toEqual(mappingTable);
  });

  it("unpack tr46's regexes with their sources and flags", () => {
    expect(Object.keys(packedRegexes)).toEqual(Object.keys(regexes));
    for (const [name, regex] of Object.entries(regexes)) {
      expect([name, packedRegexes[name].source, packedRegexes[name].flags]).toEqual([name, regex.source, regex.flags]);
    }
  });

  it("unpack tldts's public suffix trie array for array", () => {
    expect(packedTrie.nodeFlags).toEqual(trie.nodeFlags);
    expect(packedTrie.edgeStart).toEqual(trie.edgeStart);
    expect(packedTrie.edgeLength).toEqual(trie.edgeLength);
    expect(packedTrie.edgeChild).toEqual(trie.edgeChild);
    expect(packedTrie.labelText).toBe(trie.labelText);
    expect([packedTrie.rulesRoot, packedTrie.exceptionsRoot]).toEqual([trie.rulesRoot, trie.exceptionsRoot]);
  });
});

describe('unpacking', () => {
  it('reads base 93 as the build writes it, in digits a "..." literal takes as they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = base93(bytes);
        expect(text).toMatch(/^[ !#-[\]-~]*$/);
        // Each pair of characters carries 13 bits or more (base64's carry 12).
        expect(text.length).toBeLessThanOrEqual(2 * Math.ceil((bytes.length * 8) / 13));
        expect(Buffer.from(base93Bytes(text))).toEqual(Buffer.from(bytes));
      }),
    );
    expect(() => base93Bytes('ab\\c')).toThrow('packed data: not base-93: "\\\\"');
    expect(() => base93Bytes('ab"c')).toThrow('packed data: not base-93: "\\""');
    expect(() => base93Bytes('ab\nc')).toThrow('packed data: not base-93: "\\n"');
  });
});
