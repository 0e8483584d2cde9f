// The bundle compiled once per text. In memory for the runtimes of one process, and on disk for the next process
// (every test file is one, and the suite has a hundred): the names of its top-level functions (an acorn parse of the
// 500 KB bundle, most of a second) and V8's code cache of its compilation (a tenth of the compile time). Both are what
// the text gives, so nothing an execution sees changes: an entry is found by the SHA-256 of the text, V8 itself
// rejects a code cache made by another Node version or other flags (the text is then compiled afresh and its cache
// stored again), and a cache that cannot be read or written only costs the time it would have saved.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import * as acorn from 'acorn';

export interface CompiledBundle {
  script: vm.Script;
  /** Top-level `function name() {}` declarations (what Apps Script can call). */
  functions: string[];
}

const CACHE_DIR = path.resolve(__dirname, '../../node_modules/.cache/gas-runtime');
/** Bundles kept on disk: each build makes a new text; the oldest entries go. */
const DISK_ENTRIES = 6;
/** Bundles kept in memory by file name and text. */
const MEMORY_ENTRIES = 8;
const compiled = new Map<string, CompiledBundle>();
/** V8 takes a code cache only from the same version and flags: processes with other flags keep their own. */
const V8_SETTINGS = createHash('sha256')
  .update(JSON.stringify([process.version, process.execArgv, process.env.NODE_OPTIONS ?? '']))
  .digest('hex')
  .slice(0, 12);

/** Top-level `function name() {}` declarations of a script. */
export function topLevelFunctions(source: string): string[] {
  const program = acorn.parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowHashBang: true,
  }) as unknown as {
    body: Array<{ type: string; id?: { name: string } }>;
  };
  return program.body.filter((n) => n.type === 'FunctionDeclaration' && n.id).map((n) => n.id!.name);
}

function readCached(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

function listedFunctions(listed: Buffer | null): string[] | null {
  try {
    const names = JSON.parse(listed?.toString('utf8') ?? 'null') as unknown;
    return Array.isArray(names) && names.every((name) => typeof name === 'string') ? names : null;
  } catch {
    return null;
  }
}

/** Writes whole or not at all (another process may read the same entry meanwhile), then drops the oldest entries. */
function writeCached(file: string, data: Buffer | string): void {
  const cacheDir = path.dirname(file);
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, data);
    fs.renameSync(partial, file);
    const entries = fs
      .readdirSync(cacheDir)
      .filter((name) => name.endsWith('.functions.json'))
      .map((name) => ({ name, at: fs.statSync(path.join(cacheDir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { name } of entries.slice(DISK_ENTRIES)) {
      const hash = name.slice(0, -'.functions.json'.length);
      for (const old of fs.readdirSync(cacheDir).filter((other) => other.startsWith(hash)))
        fs.rmSync(path.join(cacheDir, old), { force: true });
    }
  } catch {
    // Only slower next time.
  }
}

/**
 * The script compiled from `source` (shown in stack traces as `filename`) and its top-level functions; `cacheDir`:
 * where the entries are kept on disk.
 */
export function compileBundle(source: string, filename: string, cacheDir = CACHE_DIR): CompiledBundle {
  const key = `${cacheDir}\0${filename}\0${source}`;
  const known = compiled.get(key);
  if (known) return known;
  const hash = createHash('sha256').update(source).digest('hex');
  const functionsFile = path.join(cacheDir, `${hash}.functions.json`);
  const codeCacheFile = path.join(cacheDir, `${hash}.${V8_SETTINGS}.v8-cache`);
  const cachedData = readCached(codeCacheFile) ?? undefined;
  const script = new vm.Script(source, { filename, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) writeCached(codeCacheFile, script.createCachedData());
  let functions = listedFunctions(readCached(functionsFile));
  if (!functions) {
    functions = topLevelFunctions(source);
    writeCached(functionsFile, JSON.stringify(functions));
  }
  const entry = { script, functions };
  compiled.set(key, entry);
  if (compiled.size > MEMORY_ENTRIES) compiled.delete(compiled.keys().next().value!);
  return entry;
}
