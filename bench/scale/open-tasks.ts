// The scale benchmark's open tasks (issue 46, point 3): a project of its own, one user on Google's consumer quotas,
// one spreadsheet of 20,001 contact rows, each asking its own question. Two launches of 10,000 rows a day apart (a
// day's requests do not hold 20,000 creates) with research slow enough that none finishes meanwhile, the hourly
// timer alone creating what a launch left queued and polling: 20,000 tasks open at once. The document's properties
// are measured after every launch and timer run (their peak), with the longest timer run's modelled time; then, a
// day later, one more row is launched and refused, and `refused_at` is the open tasks it was refused at (the launch's
// precondition, OPEN_TASKS_MAX, src/research/launch/preconditions.ts).
import { createManualClock, createProject, type GasRuntime } from '../../dev/gas-runtime';
import type { SandboxControl } from '../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import { OPEN_TASKS_MAX } from '../../src/research/launch/preconditions';
import { BUNDLE } from '../../test/integration/harness';
import { markModelled, modelledSince, seconds } from '../_modelled';
import { advance, documentWith, FINAL, launchRows, statusColumn, HOUR, SHEET, TOKEN, USER } from './world';
import type { World } from './world';

const LAUNCH_ROWS = 10_000;
const LAUNCHES = 2;
/** Research at this pace: a medium task takes weeks, so every task stays open through the part. */
const OPEN_SPEED = 0.000005;
/** Hourly timer runs after a launch at most, until the sandbox holds every task the launch asked for. */
const HOURS_AFTER_LAUNCH = 12;

export interface OpenTaskFigures {
  documentMax: number;
  /** Tasks open (queued, running, or finished and not yet written) at the peak. */
  openMax: number;
  propertiesKbPeak: number;
  /** The open tasks when one more launch was refused for them (0: launched, or refused for another reason). */
  refusedAt: number;
  refusal: string;
  /** The longest timer run's modelled seconds with the tasks open. */
  timerRunMaxS: number;
  failedTimerRuns: number;
}

/** The tasks the sandbox holds, every account's (the part counts those made since it started). */
async function allTasks(control: SandboxControl): Promise<number> {
  return (await control.call<unknown[]>('GET', '/_sandbox/tasks')).length;
}

/** Rows still waiting for their result (a status that is not final). */
const openRows = (doc: GasRuntime) => statusColumn(doc).filter((status) => status !== '' && !FINAL.test(status)).length;

export async function openTasks(control: SandboxControl, companies: string[]): Promise<OpenTaskFigures> {
  const clock = createManualClock(await control.now());
  const project = createProject({ bundlePath: BUNDLE, users: [USER], clock, addOn: true, quotas: 'consumer' });
  project.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
  project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, control.url);
  const world: World = { control, clock, project };
  const total = LAUNCH_ROWS * LAUNCHES + 1;
  const contacts = Array.from({ length: total }, (_, i) => [`Contact ${i + 1}`, companies[i % companies.length]]);
  const doc = documentWith(world, 'open-tasks', SHEET, [['Contact', 'Domain'], ...contacts]);
  const template = 'Research {Domain} for {Contact}';
  const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

  const before = await allTasks(control);
  const sandboxTasks = async (ctl: SandboxControl) => (await allTasks(ctl)) - before;
  await control.setResearchSpeed(OPEN_SPEED);
  let propertiesPeak = 0;
  let openMax = 0;
  let timerRunMaxMs = 0;
  let failedTimerRuns = 0;
  const measure = () => {
    propertiesPeak = Math.max(propertiesPeak, doc.properties.document.size());
    openMax = Math.max(openMax, openRows(doc));
  };
  /** The due timer runs, their longest modelled time and failures noted, then the figures. */
  const fire = () => {
    const mark = markModelled(project.counters);
    for (const result of project.triggers.fireDue()) if (!result.ok) failedTimerRuns++;
    timerRunMaxMs = Math.max(timerRunMaxMs, modelledSince(project.counters, mark, 'trigger').maxExecutionMs);
    measure();
  };
  for (let launched = 0; launched < LAUNCHES; launched++) {
    const answer = launchRows(doc, rows(2 + launched * LAUNCH_ROWS, LAUNCH_ROWS), template);
    if (!answer.ok) throw new Error(`open tasks: launch ${launched + 1} refused: ${answer.message}`);
    measure();
    const expected = (launched + 1) * LAUNCH_ROWS;
    for (let hour = 0; hour < HOURS_AFTER_LAUNCH && (await sandboxTasks(control)) < expected; hour++) {
      await advance(world, HOUR);
      fire();
    }
    // The next launch once this one's creates have left the request window (25 hours, request-budget.ts; the timer's
    // runs in between only poll, and are left out but the last).
    await advance(world, 26 * HOUR);
    fire();
  }
  // One more row: refused by the open tasks the spreadsheet holds (any other refusal is printed, refused_at 0).
  const open = openRows(doc);
  const extra = launchRows(doc, [total + 1], template);
  const refusedHere = !extra.ok && /research tasks open/.test(extra.message);
  measure();
  await control.setResearchSpeed(0.05);
  const figures: OpenTaskFigures = {
    documentMax: OPEN_TASKS_MAX,
    openMax,
    propertiesKbPeak: propertiesPeak / 1024,
    refusedAt: refusedHere ? open : 0,
    refusal: extra.ok ? '' : extra.message,
    timerRunMaxS: timerRunMaxMs / 1000,
    failedTimerRuns,
  };
  console.log(
    `open tasks: ${LAUNCHES} launches of ${LAUNCH_ROWS} rows in one spreadsheet, ${openMax} tasks open at most, ` +
      `document properties at most ${figures.propertiesKbPeak.toFixed(1)} KB, the longest timer run ` +
      `${seconds(timerRunMaxMs)} s modelled (${failedTimerRuns} failed); one more row at ${open} open: ` +
      (extra.ok ? `launched (${extra.message})` : `refused: ${extra.message}`),
  );
  return figures;
}
