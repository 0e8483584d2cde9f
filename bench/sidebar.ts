// `npm run bench -- sidebar`: opens each built panel/dialog HTML in Chromium (300 px wide, google.script.run bridged
// to the emulator through the playground) and prints its size and the time to first rendered content.
// Goal: every page under 150 KB and under 500 ms. Also the modelled time (bench/_modelled.ts) of the server calls a
// page makes while it opens: each is one google.script.run execution (start, round trip and work); goal <= 1.5 s for
// the slowest. Last line: `sidebar: max_html_kb=.. first_render_ms=.. modelled_s_max_execution=..`.
import * as fs from 'fs';
import * as path from 'path';
import { chromium } from 'playwright-core';
import { startSandbox } from '../test/integration/harness';
import { startPlayground } from '../dev/playground/server';
import { goal, seconds } from './_modelled';

const DIST = path.resolve(__dirname, '../dist');

export async function run(): Promise<void> {
  const pages = fs
    .readdirSync(DIST)
    .filter((file) => file.endsWith('.html'))
    .sort();
  const { sandbox } = await startSandbox({ clock: 'manual' });
  const playground = await startPlayground({ sandboxUrl: sandbox.url });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-quic', '--disable-background-networking'],
  });
  let maxKb = 0;
  let maxRenderMs = 0;
  let maxOpeningMs = 0;
  let openingExecutions = 0;
  try {
    for (const file of pages) {
      const name = path.basename(file, '.html');
      const kb = fs.statSync(path.join(DIST, file)).size / 1024;
      const page = await browser.newPage({ viewport: { width: 300, height: 700 } });
      const external: string[] = [];
      await page.route('**/*', (route) => {
        if (route.request().url().startsWith(playground.url)) return route.continue();
        external.push(route.request().url());
        return route.abort();
      });
      // Each page is measured on its first load.
      const executed = playground.runtime.counters.executions;
      await page.goto(`${playground.url}page/${name}`);
      await page.waitForFunction(() => (document.getElementById('app')?.childElementCount ?? 0) > 0);
      await page.waitForLoadState('networkidle');
      const log = playground.runtime.counters.modelled.executions;
      const opening = log
        .slice(Math.max(0, log.length - (playground.runtime.counters.executions - executed)))
        .filter((entry) => entry.kind === 'sidebar');
      const renderMs = await page.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        return paint ? paint.startTime : performance.now();
      });
      await page.close();
      maxKb = Math.max(maxKb, kb);
      maxRenderMs = Math.max(maxRenderMs, renderMs);
      const slowest = opening.reduce((max, entry) => Math.max(max, entry.ms), 0);
      maxOpeningMs = Math.max(maxOpeningMs, slowest);
      openingExecutions += opening.length;
      console.log(
        `${name}.html: ${kb.toFixed(1)} KB, first render ${renderMs.toFixed(0)} ms, opening calls (modelled) ${opening.map((entry) => `${entry.name} ${seconds(entry.ms)} s`).join(', ') || 'none'}${external.length ? `, BLOCKED external requests: ${external.join(' ')}` : ''}`,
      );
    }
  } finally {
    await browser.close();
    await playground.close();
    await sandbox.stop();
  }
  console.log(goal('slowest call of a panel opening (modelled)', maxOpeningMs / 1000, 1.5, 's'));
  console.log(
    `sidebar: max_html_kb=${maxKb.toFixed(1)} first_render_ms=${maxRenderMs.toFixed(0)} executions=${openingExecutions} modelled_s_max_execution=${seconds(maxOpeningMs)}`,
  );
}
