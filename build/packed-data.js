// Generates src/shared/generated/{uts46-mapping,uts46-regexes,psl-trie}.js: the data tables of tr46 (UTS #46) and
// tldts (the public suffix list) packed small, which the bundle uses in place of the packages' own files
// (webpack.config.js). Each table is split into streams of one kind of value (lengths, flags, steps, text), which
// deflate separately better than interleaved; each stream is varint-coded, deflated and written in base 93 (6.5 bits a
// character where base64 has 6). src/shared/domain/packed-data.ts unpacks them, to exactly the packages' values (its
// unit test compares every entry). Run by the build before webpack (build/build.js) and by the tests' global set-up.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const root = path.resolve(__dirname, '..');
const GENERATED = path.join(root, 'src', 'shared', 'generated');

/** The package files the generated modules replace: by package, the request its code makes, and the module. */
const REPLACED = {
  tr46: { './lib/mappingTable.json': 'uts46-mapping.js', './lib/regexes.js': 'uts46-regexes.js' },
  tldts: { './data/trie': 'psl-trie.js' },
};

/** The generated module replacing a request of a package's code (webpack.config.js), or null. */
function replacementFor(context, request) {
  const owner = /[\\/]node_modules[\\/](tr46|tldts)[\\/]/.exec(`${context}/`);
  const module = owner && REPLACED[owner[1]][request];
  return module ? path.join(GENERATED, module) : null;
}

/** Whether a bundled module (webpack's name for it) is one of the replaced package files: a replacement missed. */
function isReplacedFile(moduleName) {
  return Object.entries(REPLACED).some(([owner, requests]) =>
    Object.keys(requests).some((request) => {
      const file = request.slice(2).replace(/[.]/g, '\\.');
      return new RegExp(`node_modules/${owner}/(.*/)?${file}(\\.js)?$`).test(moduleName);
    }),
  );
}

/** Appends an unsigned varint (7 bits a byte, low first). */
function unsigned(bytes, value) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`packed data: ${value} is not an unsigned integer`);
  do {
    const low = value % 0x80;
    value = Math.floor(value / 0x80);
    bytes.push(value > 0 ? low | 0x80 : low);
  } while (value > 0);
}

/** Appends a signed varint, zigzag-coded (0, -1, 1, -2, ... as 0, 1, 2, 3, ...). */
function signed(bytes, value) {
  unsigned(bytes, value < 0 ? -value * 2 - 1 : value * 2);
}

/** Appends text as UTF-8, ended by a 0 (what packed-data.ts's textsOf reads). */
function text(bytes, value) {
  if (value.includes('\0')) throw new Error('packed data: text holds a NUL');
  bytes.push(...Buffer.from(value, 'utf8'), 0);
}

/** Base-93 digits: the printable ASCII characters but '"' and the backslash, which a "..." literal takes as they are. */
const BASE93 = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .filter((character) => character !== '"' && character !== '\\')
  .join('');

/**
 * Bytes as base-93 text: Joachim Henke's basE91 with 93 digits, 13 bits a pair of characters, or 14 when the 13 are
 * below 457 (packed-data.ts's base93Bytes reads it).
 */
function base93(bytes) {
  let text = '';
  let queue = 0;
  let bits = 0;
  for (const byte of bytes) {
    queue |= byte << bits;
    bits += 8;
    if (bits > 13) {
      let value = queue & 8191;
      if (value > 456) {
        queue >>= 13;
        bits -= 13;
      } else {
        value = queue & 16383;
        queue >>= 14;
        bits -= 14;
      }
      text += BASE93[value % 93] + BASE93[Math.floor(value / 93)];
    }
  }
  if (bits > 0) {
    text += BASE93[queue % 93];
    if (bits > 7 || queue > 92) text += BASE93[Math.floor(queue / 93)];
  }
  return text;
}

/** Zopfli's settings: 15 iterations (more gain under 0.1 %; the build deflates only when a table changes). */
const ZOPFLI = { numiterations: 15, blocksplitting: true };

/**
 * A stream as packed-data.ts takes it (`Packed`): its bytes deflated by zopfli (6 % smaller than zlib's best for these
 * tables, the same format) as base-93, and how many bytes it inflates to.
 */
async function packed(bytes) {
  const { deflateAsync } = require('@gfx/zopfli');
  return `["${base93(await deflateAsync(Buffer.from(bytes), ZOPFLI))}", ${bytes.length}]`;
}

/** The statuses of tr46's mapping table whose entries map (those of the other statuses never do). */
function mappingStatuses(table) {
  const statuses = [...new Set(table.filter((entry) => entry.length > 2).map(([, status]) => status))];
  if (table.some(([, status, mapping]) => statuses.includes(status) !== (mapping !== undefined)))
    throw new Error("tr46's mapping table: a status whose entries map only sometimes");
  return statuses;
}

/**
 * tr46's mapping table as the five streams src/shared/domain/packed-data.ts's uts46MappingTable reads (which is
 * also given mappingStatuses: whether an entry maps follows from its status, its range form from its length).
 */
function packUts46Mapping(table) {
  const [lengths, statuses, mappingLengths, firstOffsets, steps] = [[], [], [], [], []];
  let next = 0;
  let previousOffset = 0;
  for (const [codePoints, status, mapping] of table) {
    const [first, last] = Array.isArray(codePoints) ? codePoints : [codePoints, codePoints];
    if (first !== next) throw new Error(`tr46's mapping table skips from ${next} to ${first}`);
    if (Array.isArray(codePoints) === (first === last)) throw new Error(`tr46's mapping table: range form at ${first}`);
    next = last + 1;
    unsigned(lengths, last - first);
    statuses.push(status);
    if (mapping === undefined) continue;
    const mapped = [...mapping].map((character) => character.codePointAt(0));
    unsigned(mappingLengths, mapped.length);
    if (mapped.length === 0) continue;
    signed(firstOffsets, mapped[0] - first - previousOffset);
    previousOffset = mapped[0] - first;
    mapped.slice(1).forEach((codePoint, i) => signed(steps, codePoint - mapped[i]));
  }
  return [lengths, statuses, mappingLengths, firstOffsets, steps];
}

/** The escapes of a regex source, by the kind byte packed-data.ts's uts46Regexes reads (upper-case hex only). */
const ESCAPE_KINDS = [
  [0xf1, /^\\u\{([0-9A-F]+)\}/],
  [0xf2, /^\\u([0-9A-F]{4})/],
  [0xf3, /^\\x([0-9A-F]{2})/],
];

/** tr46's regexes' sources as the two streams packed-data.ts's uts46Regexes reads (names and flags go beside). */
function packUts46Regexes(regexes) {
  const [shapes, steps] = [[], []];
  for (const { source } of Object.values(regexes)) {
    let codePoint = 0;
    for (let rest = source; rest.length > 0;) {
      const escape = ESCAPE_KINDS.map(([kind, pattern]) => [kind, pattern.exec(rest)]).find(([, match]) => match);
      if (escape) {
        const [kind, match] = escape;
        shapes.push(kind);
        signed(steps, parseInt(match[1], 16) - codePoint);
        codePoint = parseInt(match[1], 16);
        rest = rest.slice(match[0].length);
      } else {
        const code = rest.charCodeAt(0);
        if (code === 0 || code > 0x7f) throw new Error(`tr46's regexes: character ${code} is not packable ASCII`);
        shapes.push(code);
        rest = rest.slice(1);
      }
    }
    shapes.push(0);
  }
  return [shapes, steps];
}

/** A node's edges of tldts's trie, as [label, child] in the trie's order. */
function edgesOf(trie, node, labelStart) {
  const edges = [];
  for (let edge = trie.edgeStart[node]; edge < trie.edgeStart[node + 1]; edge++) {
    const start = labelStart[edge];
    edges.push([trie.labelText.slice(start, start + trie.edgeLength[edge]), trie.edgeChild[edge]]);
  }
  return edges;
}

const isAscii = (label) => /^[\0-\x7f]*$/.test(label);

/** tldts's trie arrays as the five streams src/shared/domain/packed-data.ts's publicSuffixTrie reads. */
function packPublicSuffixTrie(trie) {
  const { encode } = require('punycode/');
  const [flags, counts, labels, children, twins] = [[...trie.nodeFlags], [], [], [], []];
  if (trie.edgeChild.length !== trie.edgeLength.length) throw new Error("tldts's trie: edge arrays differ in length");
  const labelStart = [0];
  for (const length of trie.edgeLength) labelStart.push(labelStart[labelStart.length - 1] + length);
  for (let node = 0; node < trie.nodeFlags.length; node++) {
    const edges = edgesOf(trie, node, labelStart);
    const unicode = edges.map(([label]) => label).filter((label) => !isAscii(label));
    unsigned(counts, edges.length);
    for (const [label, child] of edges) {
      if (label.length === 0) throw new Error("tldts's trie: an empty label");
      // The punycode form of another label of the node is unpacked from that label (the bundle has punycode for tr46).
      const twin = label.startsWith('xn--') ? unicode.findIndex((other) => `xn--${encode(other)}` === label) : -1;
      text(labels, twin === -1 ? label : '');
      if (twin !== -1) unsigned(twins, twin);
      unsigned(children, child);
    }
  }
  return [flags, counts, labels, children, twins];
}

/** tldts's ES module of the trie, read with esbuild into CommonJS (this script runs in Node's require world). */
function tldtsTrie() {
  const esbuild = require('esbuild');
  const file = require.resolve('tldts/dist/es6/src/data/trie.js');
  const { code } = esbuild.transformSync(fs.readFileSync(file, 'utf8'), { format: 'cjs' });
  const module = { exports: {} };
  new Function('module', 'exports', code)(module, module.exports);
  return module.exports;
}

const version = (name) => require(`${name}/package.json`).version;

/**
 * The generated modules, by file name: which package file each replaces, the packed-data.ts function it calls, its
 * streams, and its value given the streams packed.
 */
function modules() {
  const tr46 = `tr46 ${version('tr46')}`;
  const regexes = require('tr46/lib/regexes.js');
  const names = JSON.stringify(Object.entries(regexes).map(([name, regex]) => [name, regex.flags]));
  const trie = tldtsTrie();
  const roots = `rulesRoot: ${trie.rulesRoot}, exceptionsRoot: ${trie.exceptionsRoot}`;
  return {
    'uts46-mapping.js': {
      source: `${tr46} lib/mappingTable.json`,
      unpacker: 'uts46MappingTable',
      streams: packUts46Mapping(require('tr46/lib/mappingTable.json')),
      value: (streams) =>
        `uts46MappingTable(${JSON.stringify(mappingStatuses(require('tr46/lib/mappingTable.json')))}, ${streams})`,
    },
    'uts46-regexes.js': {
      source: `${tr46} lib/regexes.js`,
      unpacker: 'uts46Regexes',
      streams: packUts46Regexes(regexes),
      value: (streams) => `uts46Regexes(${names}, ${streams})`,
    },
    'psl-trie.js': {
      source: `tldts ${version('tldts')} dist/es6/src/data/trie.js`,
      unpacker: 'publicSuffixTrie',
      streams: packPublicSuffixTrie(trie),
      value: (streams) => `{ ...publicSuffixTrie(${streams}), ${roots} }`,
    },
  };
}

/**
 * Writes the generated modules whose data changed. Zopfli takes seconds, so each module records a fingerprint of its
 * streams (and of the packing's settings) in its second line, and one whose fingerprint is still the same is kept.
 */
async function writePackedData() {
  fs.mkdirSync(GENERATED, { recursive: true });
  for (const [name, { source, unpacker, streams, value }] of Object.entries(modules())) {
    const file = path.join(GENERATED, name);
    const fingerprint = crypto
      .createHash('sha256')
      .update(JSON.stringify([streams, ZOPFLI, version('@gfx/zopfli'), fs.readFileSync(__filename, 'utf8')]))
      .digest('hex');
    const header = `// Streams ${fingerprint}.`;
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n')[1] === header) continue;
    const packedStreams = [];
    for (const stream of streams) packedStreams.push(await packed(stream));
    const text = [
      `// Generated by build/packed-data.js from ${source}. Do not edit.`,
      header,
      '"use strict";',
      `const { ${unpacker} } = require("../domain/packed-data");`,
      `module.exports = ${value(packedStreams.join(', '))};`,
      '',
    ].join('\n');
    fs.writeFileSync(file, text);
  }
}

module.exports = { writePackedData, replacementFor, isReplacedFile, base93 };

if (require.main === module)
  writePackedData().catch((error) => {
    console.error(error);
    process.exit(1);
  });
