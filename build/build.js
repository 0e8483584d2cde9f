// Builds dist/: Code.js (webpack, see webpack.config.js), appsscript.json (with the URL allowlist of
// SHEET_SCOUT_BASE_URL, see build/url-allowlist.js), and one self-contained HTML file per sidebar entry
// (sidebar/entries/<Name>.ts -> dist/<Name>.html, JS and CSS inlined, no external URLs). The bundle's service
// calls are checked against the manifest's scopes first (build/scope-check.js); the JSON Schema validators are compiled
// ahead of time into src/shared/generated/ (build/validators.js), so the bundle compiles no code at run time.
// `node build/build.js --out-dir <dir>` builds into another directory (tests); like dist/, the build owns it and
// removes the files it did not produce. It prints the files it built; `--verbose` also prints the bundle's size by
// dependency and the scope each of its service calls uses.
const fs = require('fs');
const path = require('path');
const webpack = require('webpack');
const esbuild = require('esbuild');
const { manifestAllowlistFor } = require('./url-allowlist');
const { checkScopes } = require('./scope-check');
const { writeValidators } = require('./validators');
const { writePackedData, isReplacedFile } = require('./packed-data');
const { withoutRestatedNames } = require('./restated-names');

const root = path.resolve(__dirname, '..');

function outputDirectory(args) {
  const flag = args.indexOf('--out-dir');
  if (flag === -1) return path.join(root, 'dist');
  if (!args[flag + 1]) throw new Error('--out-dir needs a directory');
  const directory = path.resolve(args[flag + 1]);
  // The build deletes what it did not produce: only an empty directory or an earlier build's output will do.
  if (
    fs.existsSync(directory) &&
    fs.readdirSync(directory).length > 0 &&
    !fs.existsSync(path.join(directory, 'Code.js'))
  ) {
    throw new Error(`--out-dir ${directory} holds files of its own: give an empty directory or an earlier build's`);
  }
  return directory;
}

/** The project's appsscript.json, with `urlFetchWhitelist` (the service and the webhook hosts) with a base URL. */
function manifest() {
  const base = JSON.parse(fs.readFileSync(path.join(root, 'appsscript.json'), 'utf8'));
  const allowlist = manifestAllowlistFor(process.env.SHEET_SCOUT_BASE_URL);
  return `${JSON.stringify(allowlist.length > 0 ? { ...base, urlFetchWhitelist: allowlist } : base, null, 2)}\n`;
}

function runWebpack(outputPath) {
  const base = require(path.join(root, 'webpack.config.js'));
  const config = { ...base, output: { ...base.output, path: outputPath } };
  return new Promise((resolve, reject) => {
    webpack(config, (err, stats) => {
      if (err) return reject(err);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve(stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? []);
    });
  });
}

/** What the bundle holds, by dependency (a package, or a folder of src/), largest first, in KB of module code. */
function bundleSizes(modules) {
  const sizes = new Map();
  const seen = new Set();
  const visit = (module) => {
    if (module.modules) return module.modules.forEach(visit);
    // Stats also list unnamed summaries of the chunk; only named modules are code of a dependency.
    if (!module.name || seen.has(module.identifier)) return;
    seen.add(module.identifier);
    const name = module.name;
    if (isReplacedFile(name))
      throw new Error(`${name} is in the bundle: its packed form (build/packed-data.js) should replace it`);
    const generated = name.includes('/src/shared/generated/');
    const owner = generated
      ? name
      : (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1] ?? name.split('/').slice(0, 3).join('/'));
    sizes.set(owner, (sizes.get(owner) ?? 0) + (module.size ?? 0));
  };
  modules.forEach(visit);
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

/**
 * Finishes the gas-webpack-plugin output: drops the `@preserve` tags and gives each stub the parameter names of its
 * JSDoc `@param` tags (whatever the source called them), so Apps Script's editor and Sheets' formula help see
 * `function COMPANY_LOOKUP(domain, fields)`.
 */
function finishStubs(code) {
  const withoutPreserve = code
    .replace(/^[ \t]*\*[ \t]*@preserve[ \t]*\r?\n/gm, '')
    .replace(/\/\*\*\s*@preserve\s*\*\/[ \t]*\r?\n?/g, '');
  return withoutPreserve.replace(/(\/\*\*[\s\S]*?\*\/)\s*\nfunction (\w+)\([^)]*\) \{\s*\}/g, (_match, doc, name) => {
    const params = [...doc.matchAll(/@param\s+\{[^}]*\}\s+\[?(\w+)/g)].map((m) => m[1]);
    return `${doc}\nfunction ${name}(${params.join(', ')}) {\n}`;
  });
}

/**
 * Minifies the bundle (Apps Script loads all of it at the start of every execution), keeping the stubs at its head as
 * they are: their names, parameters and JSDoc are what the editor, the formula help and google.script.run see. Names
 * of functions and classes are kept too, so errors read the same.
 */
function minifyBody(code) {
  const stubs = /^(?:\s*\/\*\*[\s\S]*?\*\/)?\s*function \w+\([^)]*\) \{\s*\}/;
  let head = '';
  let rest = code;
  for (let match = stubs.exec(rest); match; match = stubs.exec(rest)) {
    head += match[0];
    rest = rest.slice(match[0].length);
  }
  const body = withoutRestatedNames(
    esbuild.transformSync(rest, {
      minify: true,
      keepNames: true,
      target: 'es2019',
      legalComments: 'none',
    }).code,
  );
  return `${head.trimStart()}\n${body}`;
}

function inlineScript(js) {
  return js.replace(/<\/script/gi, '<\\/script');
}

/** Writes through a temporary file and a rename, so a test reading dist/ never sees a half-written file. */
function writeAtomically(file, content) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content);
  fs.renameSync(temporary, file);
}

async function buildSidebars(dist) {
  const entriesDir = path.join(root, 'sidebar', 'entries');
  if (!fs.existsSync(entriesDir)) return [];
  const template = fs.readFileSync(path.join(root, 'sidebar', 'page.html'), 'utf8');
  const built = [];
  for (const file of fs
    .readdirSync(entriesDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const name = path.basename(file, '.ts');
    const result = await esbuild.build({
      entryPoints: [path.join(entriesDir, file)],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2019',
      minify: true,
      write: false,
      outdir: dist,
      loader: { '.css': 'css' },
      legalComments: 'none',
    });
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
    const html = template
      .replace('/*STYLE*/', () => (css ? css.text : ''))
      .replace('/*SCRIPT*/', () => inlineScript(js.text))
      .replace('{{TITLE}}', name);
    writeAtomically(path.join(dist, `${name}.html`), html);
    built.push(name);
  }
  return built;
}

/**
 * Prints (`verbose`) the service methods the bundle calls with the scope each needs; prints the scopes no call needs;
 * fails when the manifest lacks one.
 */
function reportScopes(code, appsscript, verbose) {
  const { lines, missing, unused } = checkScopes(code, appsscript);
  if (verbose)
    console.log(`scopes: the bundle's service calls and the appsscript.json scope each uses\n${lines.join('\n')}`);
  if (unused.length > 0) console.log(`scopes declared but needed by no call: ${unused.join(', ')}`);
  if (missing.length > 0)
    throw new Error(`appsscript.json lacks the scopes of ${missing.join(', ')}: Google would refuse these calls`);
}

async function main() {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const dist = outputDirectory(args);
  const appsscript = manifest();
  fs.mkdirSync(dist, { recursive: true });
  const staging = fs.mkdtempSync(path.join(dist, '.webpack-'));
  try {
    writeValidators();
    await writePackedData();
    const modules = await runWebpack(staging);
    const code = minifyBody(finishStubs(fs.readFileSync(path.join(staging, 'Code.js'), 'utf8')));
    const sizes = bundleSizes(modules).map(([owner, size]) => `${owner} ${(size / 1024).toFixed(1)}`);
    if (verbose)
      console.log(
        `bundle: Code.js ${(Buffer.byteLength(code) / 1024).toFixed(1)} KB minified; by dependency, before minifying (KB): ${sizes.join(', ')}`,
      );
    reportScopes(code, JSON.parse(appsscript), verbose);
    writeAtomically(path.join(dist, 'Code.js'), code);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  writeAtomically(path.join(dist, 'appsscript.json'), appsscript);
  const pages = await buildSidebars(dist);
  // dist/ holds exactly what `clasp push` should deploy: drop files earlier builds left behind.
  const produced = new Set(['Code.js', 'appsscript.json', ...pages.map((p) => `${p}.html`)]);
  for (const file of fs.readdirSync(dist)) {
    if (!produced.has(file) && !file.startsWith('.'))
      fs.rmSync(path.join(dist, file), { recursive: true, force: true });
  }
  const relative = path.relative(root, dist);
  const where = relative.startsWith('..') || path.isAbsolute(relative) ? dist : relative;
  console.log(
    `built ${['Code.js', 'appsscript.json', ...pages.map((p) => `${p}.html`)].map((f) => `${where}/${f}`).join(', ')}`,
  );
}

main().catch((err) => {
  console.error(err.message || err);
  process.exit(1);
});
