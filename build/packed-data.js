// Generates src/shared/generated/{uts46-mapping,uts46-regexes,psl-trie}.js: the data tables of tr46 (UTS #46) and
// tldts (the public suffix list) packed small, which the bundle uses in place of the packages' own files
// (webpack.config.js). src/shared/domain/packed-data.ts unpacks them, to exactly the packages' values (its unit test compares
// every entry). Run by the build before webpack (build/build.js) and by the tests' global set-up.
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

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

/** The arguments of an unpacking function of packed-data.ts: the deflated bytes as base64, and their count. */
const packed = (bytes) =>
  `"${zlib.deflateRawSync(Buffer.from(bytes), { level: 9 }).toString('base64').replace(/=+$/, '')}", ${bytes.length}`;

/** Appends text as its length and its UTF-16 code units, each a varint (what packed-data.ts's text() reads). */
function text(bytes, value) {
  unsigned(bytes, value.length);
  for (let i = 0; i < value.length; i++) unsigned(bytes, value.charCodeAt(i));
}

/** tr46's mapping table in the form src/shared/domain/packed-data.ts's uts46MappingTable reads. */
function packUts46Mapping(table) {
  const bytes = [];
  let next = 0;
  let previousOffset = 0;
  for (const [codePoints, status, mapping] of table) {
    const [first, last] = Array.isArray(codePoints) ? codePoints : [codePoints, codePoints];
    if (first !== next) throw new Error(`tr46's mapping table skips from ${next} to ${first}`);
    next = last + 1;
    unsigned(bytes, last - first);
    bytes.push(status * 4 + (Array.isArray(codePoints) ? 2 : 0) + (mapping === undefined ? 0 : 1));
    if (mapping === undefined) continue;
    const mapped = [...mapping].map((character) => character.codePointAt(0));
    unsigned(bytes, mapped.length);
    mapped.forEach((codePoint, i) => {
      if (i > 0) return signed(bytes, codePoint - mapped[i - 1]);
      signed(bytes, codePoint - first - previousOffset);
      previousOffset = codePoint - first;
    });
  }
  return packed(bytes);
}

/** The escapes of a regex source, by the kind byte packed-data.ts's uts46Regexes reads (upper-case hex only). */
const ESCAPE_KINDS = [
  [0xf1, /^\\u\{([0-9A-F]+)\}/],
  [0xf2, /^\\u([0-9A-F]{4})/],
  [0xf3, /^\\x([0-9A-F]{2})/],
];

/** tr46's regexes' sources, in the form packed-data.ts's uts46Regexes reads (names and flags go beside). */
function packUts46Regexes(regexes) {
  const bytes = [];
  for (const { source } of Object.values(regexes)) {
    let codePoint = 0;
    for (let rest = source; rest.length > 0;) {
      const escape = ESCAPE_KINDS.map(([kind, pattern]) => [kind, pattern.exec(rest)]).find(([, match]) => match);
      if (escape) {
        const [kind, match] = escape;
        bytes.push(kind);
        signed(bytes, parseInt(match[1], 16) - codePoint);
        codePoint = parseInt(match[1], 16);
        rest = rest.slice(match[0].length);
      } else {
        const code = rest.charCodeAt(0);
        if (code === 0 || code > 0x7f) throw new Error(`tr46's regexes: character ${code} is not packable ASCII`);
        bytes.push(code);
        rest = rest.slice(1);
      }
    }
    bytes.push(0);
  }
  return packed(bytes);
}

/** tldts's trie arrays in the form src/shared/domain/packed-data.ts's publicSuffixTrie reads. */
function packPublicSuffixTrie(trie) {
  const bytes = [];
  for (const count of [trie.nodeFlags.length, trie.edgeStart.length, trie.edgeLength.length]) unsigned(bytes, count);
  if (trie.edgeChild.length !== trie.edgeLength.length) throw new Error("tldts's trie: edge arrays differ in length");
  const words = (array) => array.forEach((word) => bytes.push(word & 0xff, word >> 8));
  const append = (values) => values.forEach((value) => bytes.push(value));
  append(trie.nodeFlags);
  words(trie.edgeStart);
  append(trie.edgeLength);
  words(trie.edgeChild);
  text(bytes, trie.labelText);
  return packed(bytes);
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

/** A generated module: which package file it replaces, the packed-data.ts function it calls, and its value. */
function generated(source, unpacker, value) {
  return [
    `// Generated by build/packed-data.js from ${source}. Do not edit.`,
    '"use strict";',
    `const { ${unpacker} } = require("../domain/packed-data");`,
    `module.exports = ${value};`,
    '',
  ].join('\n');
}

/** The generated modules' text, by file name. */
function modules() {
  const tr46 = `tr46 ${version('tr46')}`;
  const mapping = packUts46Mapping(require('tr46/lib/mappingTable.json'));
  const regexes = require('tr46/lib/regexes.js');
  const names = JSON.stringify(Object.entries(regexes).map(([name, regex]) => [name, regex.flags]));
  const trie = tldtsTrie();
  const roots = `rulesRoot: ${trie.rulesRoot}, exceptionsRoot: ${trie.exceptionsRoot}`;
  return {
    'uts46-mapping.js': generated(
      `${tr46} lib/mappingTable.json`,
      'uts46MappingTable',
      `uts46MappingTable(${mapping})`,
    ),
    'uts46-regexes.js': generated(
      `${tr46} lib/regexes.js`,
      'uts46Regexes',
      `uts46Regexes(${names}, ${packUts46Regexes(regexes)})`,
    ),
    'psl-trie.js': generated(
      `tldts ${version('tldts')} dist/es6/src/data/trie.js`,
      'publicSuffixTrie',
      `{ ...publicSuffixTrie(${packPublicSuffixTrie(trie)}), ${roots} }`,
    ),
  };
}

/** Writes the generated modules whose text changed. */
function writePackedData() {
  fs.mkdirSync(GENERATED, { recursive: true });
  for (const [name, text] of Object.entries(modules())) {
    const file = path.join(GENERATED, name);
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
  }
}

module.exports = { writePackedData, replacementFor, isReplacedFile };

if (require.main === module) writePackedData();
