// Raw DEFLATE decoding (RFC 1951) for the packed data tables (src/shared/domain/packed-data.ts): stored, fixed and
// dynamic Huffman blocks, decoded the way zlib's reference decoder puff.c does (canonical codes read a bit at a time,
// counted by length). Apps Script's V8 has no decompression of its own (Utilities belongs to src/platform); this is a
// third of the size of the tiny-inflate package the bundle carried before, and as fast for these tables. Its unit test
// inflates what Node's zlib deflates, of every block type.

/** A canonical Huffman code: how many codes each length (1 to 15) has, and the symbols in code order. */
interface Huffman {
  counts: number[];
  symbols: number[];
}

/** The code of symbols with these code lengths (0: the symbol is not used). */
function huffman(lengths: number[]): Huffman {
  const counts = new Array<number>(16).fill(0);
  for (const length of lengths) counts[length]++;
  const next = [0, 0];
  for (let length = 1; length < 15; length++) next.push(next[length] + counts[length]);
  const symbols: number[] = [];
  lengths.forEach((length, symbol) => {
    if (length > 0) symbols[next[length]++] = symbol;
  });
  counts[0] = 0;
  return { counts, symbols };
}

/** Base values and extra bits of the length codes (257 to 285) and of the distance codes (0 to 29). */
const LENGTH_EXTRA = Array.from({ length: 29 }, (_, i) => (i < 8 || i === 28 ? 0 : (i >> 2) - 1));
const LENGTH_BASE: number[] = LENGTH_EXTRA.map((_, i) => (i === 28 ? 258 : 3));
for (let i = 1; i < 28; i++) LENGTH_BASE[i] = LENGTH_BASE[i - 1] + (1 << LENGTH_EXTRA[i - 1]);
const DISTANCE_EXTRA = Array.from({ length: 30 }, (_, i) => (i < 4 ? 0 : (i >> 1) - 1));
const DISTANCE_BASE = [1];
for (let i = 1; i < 30; i++) DISTANCE_BASE.push(DISTANCE_BASE[i - 1] + (1 << DISTANCE_EXTRA[i - 1]));

/** The order in which a dynamic block lists the code lengths of its code-length code. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** The codes of fixed Huffman blocks: literals and lengths, and distances. */
const FIXED = [
  huffman(Array.from({ length: 288 }, (_, symbol) => (symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8))),
  huffman(new Array<number>(30).fill(5)),
];

/** Inflates raw DEFLATE `input` into `output` (sized to the inflated length); returns `output`. */
export function inflate(input: Uint8Array, output: Uint8Array): Uint8Array {
  let at = 0;
  let held = 0;
  let heldBits = 0;
  let written = 0;
  const bits = (count: number): number => {
    for (; heldBits < count; heldBits += 8) held |= input[at++] << heldBits;
    const value = held & ((1 << count) - 1);
    held >>>= count;
    heldBits -= count;
    return value;
  };
  const decode = ({ counts, symbols }: Huffman): number => {
    for (let length = 1, code = 0, first = 0, index = 0; length < 16; length++) {
      code |= bits(1);
      if (code - first < counts[length]) return symbols[index + code - first];
      index += counts[length];
      first = (first + counts[length]) << 1;
      code <<= 1;
    }
    throw new Error('packed data: not a Huffman code');
  };
  const dynamicCodes = (): Huffman[] => {
    const [literals, distances, codeLengths] = [bits(5) + 257, bits(5) + 1, bits(4) + 4];
    const lengthsOfCodeLengths = new Array<number>(19).fill(0);
    for (let i = 0; i < codeLengths; i++) lengthsOfCodeLengths[CODE_LENGTH_ORDER[i]] = bits(3);
    const codeLengthCode = huffman(lengthsOfCodeLengths);
    const lengths: number[] = [];
    while (lengths.length < literals + distances) {
      const symbol = decode(codeLengthCode);
      if (symbol < 16) lengths.push(symbol);
      else {
        const repeated = symbol === 16 ? lengths[lengths.length - 1] : 0;
        const times = symbol === 16 ? 3 + bits(2) : symbol === 17 ? 3 + bits(3) : 11 + bits(7);
        for (let i = 0; i < times; i++) lengths.push(repeated);
      }
    }
    return [huffman(lengths.slice(0, literals)), huffman(lengths.slice(literals))];
  };
  for (let last = 0; !last;) {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      held = heldBits = 0;
      const length = input[at] | (input[at + 1] << 8);
      output.set(input.subarray(at + 4, at + 4 + length), written);
      [at, written] = [at + 4 + length, written + length];
      continue;
    }
    if (type === 3) throw new Error('packed data: not a DEFLATE block');
    const [lengthCode, distanceCode] = type === 1 ? FIXED : dynamicCodes();
    for (let symbol = decode(lengthCode); symbol !== 256; symbol = decode(lengthCode)) {
      if (symbol < 256) {
        output[written++] = symbol;
        continue;
      }
      const length = LENGTH_BASE[symbol - 257] + bits(LENGTH_EXTRA[symbol - 257]);
      const distanceSymbol = decode(distanceCode);
      const distance = DISTANCE_BASE[distanceSymbol] + bits(DISTANCE_EXTRA[distanceSymbol]);
      for (let i = 0; i < length; i++, written++) output[written] = output[written - distance];
    }
  }
  return output;
}
