// Every sidebar panel at Google's fixed 300 px width, in the playground: no text may be cut. A panel is clipped when
// any element holding text is wider inside than it shows (scrollWidth > clientWidth), when the page scrolls
// sideways, or when a select's chosen option or an input's value is wider than the control. Each panel is opened in
// the state a first-hour user sees (Search with a preview, Search's "Similar to a list" after a run, Research with the
// fields form, Enrich with its preview).
import { describeWithBrowser, startStack, type Stack } from './harness';
import type { Frame } from 'playwright-core';
import { clippedTexts, type Clip } from './layout-check';

describeWithBrowser('every panel at 300 px', () => {
  let stack: Stack;
  const found: Record<string, Clip[]> = {};

  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  async function open(handler: string): Promise<Frame> {
    await stack.page.click(`[data-handler="${handler}"]`);
    const frame = await stack.sidebar();
    expect(await stack.page.$eval('#sidebar-frame', (frame) => (frame as HTMLElement).clientWidth)).toBe(300);
    return frame;
  }

  it('Settings', async () => {
    const panel = await open('showSettingsPanel');
    await panel.waitForSelector('#account-email');
    await panel.click('summary:has-text("Advanced")');
    found.Settings = await clippedTexts(panel);
    await stack.screenshot('layout-settings');
    expect(found.Settings).toEqual([]);
  });

  it('Company search with a preview', async () => {
    const panel = await open('showSearchPanel');
    await panel.fill('#search-query', 'software');
    await panel.fill('#search-count', '20');
    await panel.click('summary:has-text("Exclude domains")');
    await panel.click('#search-run');
    await panel.waitForSelector('#search-preview h2:has-text("20 results")');
    found.Search = await clippedTexts(panel);
    await stack.screenshot('layout-search');
    expect(found.Search).toEqual([]);
  });

  it('Company search, Similar to a list, after a run', async () => {
    await stack.page.click('[data-sheet="Companies"]');
    await stack.page.click('td[data-cell="A2"]');
    await stack.page.click('td[data-cell="A8"]', { modifiers: ['Shift'] });
    const panel = await open('showSearchPanel');
    await panel.click('#mode-list');
    await panel.click('#list-use-selection');
    await panel.waitForSelector('#list-references .count');
    await panel.click('summary:has-text("Exclude domains")');
    await panel.fill('#list-per-reference', '20');
    await panel.fill('#list-top', '10');
    await panel.click('#list-run');
    await panel.waitForSelector('#list-status .message');
    found.SimilarToList = await clippedTexts(panel);
    await stack.screenshot('layout-search-list');
    expect(found.SimilarToList).toEqual([]);
  });

  it('Enrich with its preview', async () => {
    // The lookalike list above left its new sheet in view (as Sheets does): back to the demo sheet.
    await stack.page.click('[data-sheet="Companies"]');
    await stack.page.click('td[data-cell="A1"]');
    const panel = await open('showEnrichPanel');
    await panel.waitForSelector('#enrich-preview');
    found.Enrich = await clippedTexts(panel);
    await stack.screenshot('layout-enrich');
    expect(found.Enrich).toEqual([]);
  });

  it('Research with fields', async () => {
    await stack.page.click('td[data-cell="A2"]');
    const panel = await open('showResearchPanel');
    await panel.fill('#brief', 'Research {Domain}');
    await panel.selectOption('#depth', 'medium');
    await panel.check('#output-fields');
    await panel.fill('[aria-label="Field 1 name"]', 'headquarters_country_code');
    found.Research = await clippedTexts(panel);
    await stack.screenshot('layout-research');
    expect(found.Research).toEqual([]);
  });
});
