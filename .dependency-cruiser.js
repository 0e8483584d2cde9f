// The checkout's import rules, checked by `npm run lint` (dependency-cruiser reads this file; docs/design/layout.md,
// "Floors", argues the order):
// - no import circle anywhere in the checkout (src/, sidebar/, dev/, test/, bench/, build/), type-only imports
//   counted;
// - in src/, every import goes down: a room (a folder of src/, or a file at its top) imports only rooms on lower
//   floors of SRC_FLOORS, never one on its own floor or above; there are no exceptions;
// - every room of src/ stands on a floor.
const SRC_FLOORS = [
  // The ground: the port interfaces, then what every room may use over them (cell values, A1, storage, domains).
  ['ports.ts'],
  ['shared'],
  // The one client of the service.
  ['api'],
  // Generic Apps Script adapters (properties, cache, lock, fetch, the spreadsheet) and the company data catalogue.
  ['platform', 'companies'],
  // The document's one timer, which features schedule their background work on (it knows no feature).
  ['scheduler'],
  // Features, each on the floor above every feature it uses; each keeps its own adapters in its adapters/ folder.
  ['account', 'spending-history'],
  ['check', 'enrichment', 'search', 'tables'],
  ['functions', 'research'],
  ['new-rows'],
  ['background', 'digest'],
  // The wiring: the menu and the timer's handler (which hands the scheduler every feature's slice), then the Apps
  // Script globals and the sidebars' typed map of server functions.
  ['menu.ts', 'timer'],
  ['main.ts', 'server-functions.ts'],
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The paths of one room: a file at the top of src/, or a folder and everything in it. */
const roomPath = (room) => (room.endsWith('.ts') ? `^src/${escape(room)}$` : `^src/${escape(room)}/`);
const ALL_ROOMS = SRC_FLOORS.flat();

/** For each room: it imports no room on its own floor or above. */
function floorRules() {
  return SRC_FLOORS.flatMap((floor, level) =>
    floor.flatMap((room) => {
      const above = SRC_FLOORS.slice(level)
        .flat()
        .filter((other) => other !== room);
      if (above.length === 0) return [];
      return [
        {
          name: 'src-import-runs-up',
          comment: `src/${room} stands on floor ${level + 1} of SRC_FLOORS: it imports lower floors only`,
          severity: 'error',
          from: { path: roomPath(room) },
          to: { path: above.map(roomPath) },
        },
      ];
    }),
  );
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
  options: {
    exclude: { path: '^(node_modules|dist|coverage|\\.types|\\.git|test/e2e/artifacts)/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
