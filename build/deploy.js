// The last step of `npm run deploy` (which runs `npm test` first): pushes dist/ to the Apps Script project named in
// .clasp.json with the clasp installed by `npm ci`, or refuses, saying how to get a script id, when there is none.
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

function scriptIdOf(configPath) {
  if (!fs.existsSync(configPath)) refuse(`no .clasp.json in ${path.dirname(configPath)}.`);
  let config;
  try {
    config = JSON.parse(fs.readFileSync(configPath, 'utf8'));
  } catch (error) {
    refuse(`.clasp.json is not valid JSON (${error.message}).`);
  }
  const scriptId = typeof config?.scriptId === 'string' ? config.scriptId.trim() : '';
  if (!scriptId) refuse('the script id in .clasp.json is empty.');
  return scriptId;
}

/** The clasp command line script of the locally installed @google/clasp (run with this node, on every platform). */
function localClasp() {
  const packageJson = path.resolve(__dirname, '../node_modules/@google/clasp/package.json');
  const { bin } = JSON.parse(fs.readFileSync(packageJson, 'utf8'));
  return path.join(path.dirname(packageJson), typeof bin === 'string' ? bin : bin.clasp);
}

const scriptId = scriptIdOf(path.resolve('.clasp.json'));
console.log(`Pushing dist/ to Apps Script project ${scriptId}`);
const push = spawnSync(process.execPath, [localClasp(), 'push', ...process.argv.slice(2)], { stdio: 'inherit' });
if (push.error) throw push.error;
process.exit(push.status ?? 1);
