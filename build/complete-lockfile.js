// Completes package-lock.json for `npm ci`. The npm registry reachable here serves only the Linux x64 builds of
// some native packages (@swc/core, unrs-resolver): `npm install` then leaves the other platforms' optional packages
// out of the lock, and `npm ci` refuses a lock that lacks them. This adds each missing optional package as a
// platform-restricted entry (os/cpu from its name), which `npm ci` skips on this machine as it would on any
// non-matching platform. Run it after changing dependencies: `npm install && node build/complete-lockfile.js`.
const fs = require('fs');
const path = require('path');

const lockPath = path.resolve(__dirname, '../package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part));
  return { os, cpu };
}

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === '' ? '' : `${location}/`;
    if (lock.packages[`${base}node_modules/${name}`] || lock.packages[`node_modules/${name}`]) continue;
    const { os, cpu } = platformOf(name);
    if (!os && !cpu) throw new Error(`cannot tell the platform of missing optional package ${name}`);
    lock.packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-specific optional package(s) added`);
