// Settings' "Check this installation" (also Extensions > Sheet Scout > Help > Check this installation): on the user's
// real account, the probes that settle what Google does not document (src/check/service.ts): a panel call's round trip
// timed here, the first domain's unpacking and fetchAll's width timed on the server, and a run of the timer it asks
// for. It shows the results and the switches they set, and the report to send the maintainer
// (docs/real-account-checklist.md). One element kept across the panel's re-renders; it loads its own state.
import type { InstallationCheckState } from '../../src/check/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { selfLoadingSection } from './self-loading';

const section = h('section', { id: 'installation-check' });
let running = false;

const time = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function timerLine(state: InstallationCheckState): string {
  const probe = state.timer;
  if (!probe) return 'Timer: not probed yet.';
  if (probe.ranAt === undefined)
    return `Timer: asked ${time(probe.askedAt)}; its next run (within an hour) reports here. Open Settings then.`;
  const where = probe.withDocument ? 'with its spreadsheet' : 'without its spreadsheet (panels carry the work)';
  return `Timer: ran ${time(probe.ranAt)} ${where}; measured ${probe.measuredMs} ms, booked ${probe.bookedMs} ms.`;
}

function resultLines(state: InstallationCheckState): string[] {
  const last = state.last;
  if (!last) return [];
  const fetchAll = last.fetchAll;
  return [
    `Panel call round trip (a start): ${last.roundTripMs ?? '?'} ms.`,
    `First domain's unpacking: ${last.unpackMs} ms (CPU factor ${last.cpuFactor} against Node).`,
    fetchAll
      ? `fetchAll: one request ${fetchAll.singleMs} ms; ${fetchAll.rounds.map((r) => `${r.size} at once ${r.ms} ms`).join(', ')}: ` +
        (fetchAll.width ? `Google runs about ${fetchAll.width} at once.` : 'no cap seen.')
      : 'fetchAll: not measured.',
    timerLine(state),
    `In use: rounds in multiples of ${state.switches.fetchAllWidth ?? 'any size (not settled)'}; a timer run booked with a ` +
      `${state.switches.timerStartMs} ms start.`,
  ];
}

function render(state: InstallationCheckState | null, problem?: string): void {
  replaceChildren(
    section,
    h('h2', {}, 'Check this installation'),
    h(
      'p',
      { class: 'muted' },
      'Measures on your account what Google does not document, sets Sheet Scout to it, and keeps the results for ' +
        "the maintainer's report. It sends at most 170 requests of your day's (no credits).",
    ),
    problem ? message('error', problem) : null,
    ...(state?.last?.problems ?? []).map((text) => message('warn', text)),
    state?.last ? h('ul', { id: 'check-results' }, ...resultLines(state).map((line) => h('li', {}, line))) : null,
    state?.last
      ? h('textarea', { id: 'check-report', readonly: true, rows: 4, 'aria-label': 'Report for the maintainer' })
      : null,
    h(
      'button',
      { id: 'check-run', disabled: running, onclick: () => void run() },
      running ? 'Checking…' : 'Run the check',
    ),
  );
  const report = section.querySelector('#check-report') as HTMLTextAreaElement | null;
  if (report && state) report.value = JSON.stringify({ ...state, requested: undefined });
}

/** A panel call's round trip: the faster of two no-op calls, as this page times them. */
async function roundTrip(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 2; i++) {
    const from = performance.now();
    await server.pingInstallation();
    times.push(performance.now() - from);
  }
  return Math.min(...times);
}

async function run(): Promise<void> {
  running = true;
  render(null);
  try {
    const state = await server.checkInstallation(await roundTrip());
    running = false;
    render(state);
  } catch (error) {
    running = false;
    render(null, errorText(error));
  }
}

/** The section (loads its state the first time it is shown; runs the check when the menu item asked for it). */
export const installationCheckSection = selfLoadingSection(section, {
  load: () => server.getInstallationCheck(),
  render: (state) => {
    render(state);
    if (state?.requested) {
      section.scrollIntoView();
      void run();
    }
  },
  failed: (problem) => render(null, problem),
});
