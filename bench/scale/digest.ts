// The scale benchmark's digest (issue 40, item 2), in the scheduled weeks: the refreshed and watched sheet's digest set
// to a Slack webhook (the sandbox's stand-in), weekly on the watch's day, left to the hourly timer with every panel
// closed. Each week, before the service changes companies, the Signals column is read (every row whose signals report
// a change, with their text); at the end every digest the stand-in received is read back: the rows each Account watch
// section names (as the cells say them) and those it counts ("…and 62 more changed rows in ..."). A signal written to
// a cell is missing when no digest names it and no count covers it.
import type { GasRuntime } from '../../dev/gas-runtime';
import type { DigestAnswer } from '../../src/digest/contract';
import { escapeFor } from '../../src/digest/compose';
import { FIRST_LOOK } from '../../src/research/watch/watch';
import type { World } from './world';

const WEBHOOK = 'https://hooks.slack.com/services/T0SCALE/B0DIGEST/scaleBenchSecret01';

export interface DigestFigures {
  weeks: number;
  posts: number;
  signalsWritten: number;
  signalsNamed: number;
  signalsMissing: number;
  /** The longest digest posted (characters). */
  longest: number;
}

export interface DigestBench {
  /** Reads the Signals column (once a week, before the service changes companies). */
  sampleSignals(): void;
  finish(weeks: number): Promise<DigestFigures>;
}

/** The Account watch sections of a digest: the lines each names and the rows its count line adds. */
function watchSections(text: string): { named: Set<string>; counted: number } {
  const named = new Set<string>();
  let counted = 0;
  let inWatch = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('*')) inWatch = line.startsWith('*Account watch, ');
    else if (inWatch && line.startsWith('• ')) named.add(line.slice(2));
    else if (inWatch) counted += Number(/^…and ([\d,]+) more/.exec(line)?.[1].replace(/,/g, '') ?? 0);
  }
  return { named, counted };
}

export function digestOf(world: World, doc: GasRuntime, sheetName: string, weekday: number): DigestBench {
  const set = doc.run<DigestAnswer>('setDigest', [{ webhookUrl: WEBHOOK, cadence: 'weekly', weekday }], {
    kind: 'sidebar',
  });
  if (!set.ok) throw new Error(`no digest: ${set.message}`);
  /** Each signal the cells showed: "<website>: <signals>", as a digest line would say it. */
  const written = new Set<string>();
  return {
    sampleSignals() {
      const values = doc.spreadsheet.sheet(sheetName).getDisplayValues();
      const signals = values[0].indexOf('Signals');
      const website = values[0].indexOf('Website');
      if (signals < 0) return;
      for (const row of values.slice(1))
        if (row[signals] && row[signals] !== 'No change' && row[signals] !== FIRST_LOOK)
          written.add(escapeFor('slack', `${row[website]}: ${row[signals]}`));
    },
    async finish(weeks) {
      const posts = (await world.control.webhookPosts()).filter(
        (post) => post.status === 200 && post.text.startsWith('*Sheet Scout digest*'),
      );
      const sections = posts.map((post) => watchSections(post.text));
      const named = [...written].filter((line) => sections.some((section) => section.named.has(line))).length;
      const counted = sections.reduce((sum, section) => sum + section.counted, 0);
      const figures = {
        weeks,
        posts: posts.length,
        signalsWritten: written.size,
        signalsNamed: named,
        signalsMissing: Math.max(0, written.size - named - counted),
        longest: Math.max(0, ...posts.map((post) => post.text.length)),
      };
      console.log(
        `G digest of the watched sheet to Slack, weekly, panels closed: ${figures.posts} digests in ${weeks} weeks ` +
          `(the longest ${figures.longest} characters); ${figures.signalsWritten} signals written to cells, ` +
          `${named} named in a digest, ${counted} counted, ${figures.signalsMissing} missing`,
      );
      return figures;
    },
  };
}
