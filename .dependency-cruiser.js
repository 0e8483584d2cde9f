// The checkout's import rules, checked by `npm run lint` (dependency-cruiser reads this file; docs/design/layout.md,
// "Floors", argues the order):
// - no import circle anywhere in the checkout (src/, sidebar/, dev/, test/, bench/, build/), type-only imports
//   counted;
// - in src/, every import goes down: a room (a folder of src/, or a file at its top) imports only rooms on lower
//   floors of FLOORS, never one on its own floor or above. TOLERATED names the imports that still run back up, each
//   file -> file: a new one fails, and so does a listed one that is gone (delete its line: the list only shrinks).
const SRC_FLOORS = [
  // The ground: the port interfaces, then what every room may use over them (cell values, A1, storage, domains).
  ['ports.ts'],
  ['shared'],
  // The one client of the service.
  ['api'],
  // Generic Apps Script adapters (properties, cache, lock, fetch, the spreadsheet) and the company data catalogue.
  ['platform', 'companies'],
  // The document's one timer, which features schedule their background work on.
  ['scheduler'],
  // Features, each on the floor above every feature it uses.
  ['account', 'spending-history'],
  ['check', 'enrichment', 'search', 'tables'],
  ['functions', 'research'],
  ['new-rows'],
  ['background', 'digest'],
  // The wiring: the menu, the Apps Script globals and the sidebars' typed map of server functions.
  ['menu.ts'],
  ['main.ts', 'server-functions.ts'],
];

// Imports in src/ that run back up today, file -> file (paths under src/). Each goes when its code moves.
// `IMPORT_RULES_TOLERATE_NONE=1 npx depcruise --config .dependency-cruiser.js --output-type err-long src` lists them
// all as errors.
const TOLERATED_NOW = [
  // Research's sheet adapter imports research's ports: it belongs in research's room (src/research/adapters/).
  ['platform/sheets/research.ts', 'research/ports.ts'],
  ['platform/sheets/research.ts', 'research/rows/row-tags.ts'],
  // Enrichment's sheet adapter imports enrichment's ports; new-rows/context.ts imports it too.
  ['platform/sheets/enrichment.ts', 'enrichment/ports.ts'],
  ['platform/sheets/enrichment.ts', 'enrichment/sheet/layout.ts'],
  // The timer's trigger adapter and authorization check belong in the scheduler's room.
  ['platform/timer-triggers.ts', 'scheduler/timer.ts'],
  ['platform/timer-triggers.ts', 'scheduler/timer-registry.ts'],
  ['platform/timer-triggers.ts', 'scheduler/timer-unavailable.ts'],
  ['platform/authorization.ts', 'scheduler/authorization.ts'],
  // The timer hands itself the features' slices: that composition belongs at the top (main.ts or a timer room).
  ['scheduler/endpoints.ts', 'digest/timer-slice.ts'],
  ['scheduler/endpoints.ts', 'enrichment/refresh/schedule-service.ts'],
  ['scheduler/endpoints.ts', 'enrichment/timer-slice.ts'],
  ['scheduler/endpoints.ts', 'new-rows/timer-slice.ts'],
  ['scheduler/endpoints.ts', 'research/timer-slice.ts'],
  ['scheduler/endpoints.ts', 'research/watch/authorization-note.ts'],
  ['scheduler/endpoints.ts', 'research/watch/watch-runs.ts'],
  // Research writes watch signals into the digest's outbox, which reads research's watches.
  ['research/context.ts', 'digest/context.ts'],
  ['research/polling/jobs.ts', 'digest/outbox.ts'],
  ['research/rows/write-back.ts', 'digest/outbox.ts'],
];
const TOLERATED = process.env.IMPORT_RULES_TOLERATE_NONE ? [] : TOLERATED_NOW;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The paths of one room: a file at the top of src/, or a folder and everything in it. */
const roomPath = (room) => (room.endsWith('.ts') ? `^src/${escape(room)}$` : `^src/${escape(room)}/`);
const filePath = (file) => `^src/${escape(file)}$`;
const ALL_ROOMS = SRC_FLOORS.flat();

const floorOf = (file) =>
  SRC_FLOORS.findIndex((floor) => floor.some((room) => new RegExp(roomPath(room)).test(`src/${file}`)));
for (const [from, to] of TOLERATED) {
  const [fromFloor, toFloor] = [floorOf(from), floorOf(to)];
  if (fromFloor < 0 || toFloor < 0 || fromFloor > toFloor)
    throw new Error(`.dependency-cruiser.js: src/${from} -> src/${to} does not run up: it needs no place in TOLERATED`);
}

/** For each room: it imports no room on its own floor or above, but for the tolerated imports. */
function floorRules() {
  const rules = [];
  SRC_FLOORS.forEach((floor, level) => {
    for (const room of floor) {
      const above = SRC_FLOORS.slice(level)
        .flat()
        .filter((other) => other !== room);
      if (above.length === 0) continue;
      const tolerated = TOLERATED.filter(([from]) => new RegExp(roomPath(room)).test(`src/${from}`));
      const exceptions = [...new Set(tolerated.map(([from]) => from))];
      const comment = `src/${room} stands on floor ${level + 1} of SRC_FLOORS: it imports lower floors only`;
      rules.push({
        name: 'src-import-runs-up',
        comment,
        severity: 'error',
        from: { path: roomPath(room), pathNot: exceptions.map(filePath) },
        to: { path: above.map(roomPath) },
      });
      for (const from of exceptions) {
        rules.push({
          name: 'src-import-runs-up',
          comment: `${comment} (TOLERATED lists this file's imports that still run up)`,
          severity: 'error',
          from: { path: filePath(from) },
          to: {
            path: above.map(roomPath),
            pathNot: tolerated.filter(([source]) => source === from).map(([, target]) => filePath(target)),
          },
        });
      }
    }
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Imports point one way: no file reaches itself through its imports (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...floorRules(),
    {
      name: 'src-room-without-floor',
      comment: 'Every room of src/ stands on a floor: add the new room to SRC_FLOORS in .dependency-cruiser.js.',
      severity: 'error',
      from: { path: '^src/', pathNot: ALL_ROOMS.map(roomPath) },
      to: { path: '^src/' },
    },
    {
      name: 'src-room-without-floor',
      comment: 'Every room of src/ stands on a floor: add the new room to SRC_FLOORS in .dependency-cruiser.js.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: ALL_ROOMS.map(roomPath) },
    },
  ],
  required: TOLERATED.map(([from, to]) => ({
    name: 'tolerated-import-gone',
    comment: `src/${from} no longer imports src/${to}: delete the pair from TOLERATED in .dependency-cruiser.js`,
    severity: 'error',
    module: { path: filePath(from) },
    to: { path: filePath(to) },
  })),
  options: {
    exclude: { path: '^(node_modules|dist|coverage|\\.types|\\.git|test/e2e/artifacts)/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
