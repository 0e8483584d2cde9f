// The first and last steps of `npm run deploy` (`--check`, then `npm test`, then the push): checks .clasp.json before
// the test suite (seconds, not minutes, to learn the script id is missing), then pushes the build output to the Apps
// Script project
// named in .clasp.json with the clasp installed by `npm ci`, or refuses, saying how to get a script id, when there is
// none. `npm run deploy -- --base-url https://…` first rebuilds the output for that service (its default address
// and the manifest's URL allowlist, see build/url-allowlist.js): the test suite runs on the plain build, since a
// build with an allowlist refuses the local sandbox's address. Other arguments go to `clasp push` (e.g. --force).
// Reads .clasp.json from the current directory, as clasp does (npm runs scripts from the project's root).
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const HOW_TO_GET_AN_ID = [
  'Set scriptId in .clasp.json: Extensions > Apps Script > Project settings > Script ID of your spreadsheet.',
  'Or let clasp create a new spreadsheet with its script: delete .clasp.json, then',
  '  npx clasp create-script --type sheets --rootDir dist',
  'writes a new .clasp.json holding the created id (or copy the id it prints into .clasp.json).',
  'Log in once first: npx clasp login',
].join('\n');

function refuse(reason) {
  console.error(`npm run deploy: ${reason}\n${HOW_TO_GET_AN_ID}`);
  process.exit(1);
}

function projectOf(configPath) {
  if (!fs.existsSync(configPath)) refuse(`no .clasp.json in ${path.dirname(configPath)}.`);
  let config;
  try {
    config = JSON.parse(fs.readFileSync(configPath, 'utf8'));
  } catch (error) {
    refuse(`.clasp.json is not valid JSON (${error.message}).`);
  }
  const scriptId = typeof config?.scriptId === 'string' ? config.scriptId.trim() : '';
  if (!scriptId) refuse('the script id in .clasp.json is empty.');
  if (config.rootDir !== 'dist') {
    console.error(
      `npm run deploy: rootDir in .clasp.json must be "dist" (the build output), not ${JSON.stringify(config.rootDir)}.`,
    );
    process.exit(1);
  }
  return { scriptId, rootDir: path.resolve(path.dirname(configPath), config.rootDir) };
}

/** `--base-url <url>` (ours) apart from the arguments for `clasp push`. */
function parseArguments(args) {
  const flag = args.indexOf('--base-url');
  if (flag === -1) return { baseUrl: null, pushArgs: args };
  if (!args[flag + 1]) {
    console.error('npm run deploy: --base-url needs the service address, e.g. --base-url https://api.example.com');
    process.exit(1);
  }
  return { baseUrl: args[flag + 1], pushArgs: [...args.slice(0, flag), ...args.slice(flag + 2)] };
}

/** The clasp command line script of the locally installed @google/clasp (run with this node, on every platform). */
function localClasp() {
  const packageJson = path.resolve(__dirname, '../node_modules/@google/clasp/package.json');
  const { bin } = JSON.parse(fs.readFileSync(packageJson, 'utf8'));
  return path.join(path.dirname(packageJson), typeof bin === 'string' ? bin : bin.clasp);
}

function run(args, env) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// `--check` (the first step of `npm run deploy`): the cheap checks of .clasp.json alone, before the test suite runs.
if (process.argv[2] === '--check') {
  const { scriptId } = projectOf(path.resolve('.clasp.json'));
  console.log(`.clasp.json names Apps Script project ${scriptId}; testing before the push.`);
  process.exit(0);
}
const { baseUrl, pushArgs } = parseArguments(process.argv.slice(2));
const { scriptId, rootDir } = projectOf(path.resolve('.clasp.json'));
if (baseUrl !== null) {
  console.log(`Building ${rootDir} for ${baseUrl}`);
  run([path.join(__dirname, 'build.js'), '--out-dir', rootDir], { ...process.env, SHEET_SCOUT_BASE_URL: baseUrl });
}
console.log(`Pushing ${rootDir} to Apps Script project ${scriptId}`);
run([localClasp(), 'push', ...pushArgs], process.env);
