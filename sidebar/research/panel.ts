// The Research panel's shell: three tabs over one typed state (state.ts). Launch (launch-tab.ts: brief template with
// live preview, depth and credit estimate, output as a report or fields, checked here before anything is sent), Tasks
// (tasks-tab.ts: this sheet's rows polled every 15 s while open, and the account's task history with "Write to
// selected row"), and Report (report-tab.ts: the selected row's report, rendered from markdown and sanitized).
import { h, message, replaceChildren } from '../ui/dom';
import { panelHeader } from '../ui/credits-badge';
import { launchTab, refreshGuard } from './launch-tab';
import { followChanges } from '../ui/follow-changes';
import { loadHistory, pollLoop, tasksTab } from './tasks-tab';
import { loadSelectedReport, reportTab } from './report-tab';
import { loadContext, setRenderer, state, type PanelState } from './state';
import { loadWatch } from './watch-section';

let body: HTMLElement;

function renderShell(): void {
  const tabs = h(
    'div',
    { class: 'tabs', role: 'tablist' },
    ...(['launch', 'tasks', 'report'] as const).map((tab) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${tab}`,
          class: state.tab === tab ? 'active' : undefined,
          onclick: () => selectTab(tab),
        },
        tab === 'launch' ? 'Launch' : tab === 'tasks' ? 'Tasks' : 'Report',
      ),
    ),
  );
  const notice = state.notice
    ? h(
        'div',
        { id: 'notice' },
        message(state.notice.kind, state.notice.text),
        ...(state.notice.details ?? []).map((line) => h('div', { class: 'muted' }, line)),
      )
    : null;
  const content = state.tab === 'launch' ? launchTab() : state.tab === 'tasks' ? tasksTab() : reportTab();
  replaceChildren(body, tabs, notice, content);
}

function selectTab(tab: PanelState['tab']): void {
  state.tab = tab;
  state.notice = null;
  renderShell();
  if (tab === 'tasks') {
    void pollLoop.pollNow();
    if (!state.history) void loadHistory(0);
  }
  if (tab === 'report') void loadSelectedReport();
}

export function mountResearchPanel(element: HTMLElement): void {
  body = h('div', {});
  replaceChildren(element, panelHeader('Research'), body);
  setRenderer(renderShell);
  renderShell();
  void loadContext();
  void loadWatch();
  void pollLoop.pollNow();
  // The menu, another editor's panel or the timer changed the watch or the cap: shown at the next poll.
  followChanges(async () => {
    await loadWatch(true);
    if (state.context) await refreshGuard();
  });
}
