// The Report tab: the selected row's (or a task's) report, rendered from markdown and sanitized with its citations
// linked to a numbered source list, or its fields with their evidence.
import type { TaskReport } from '../../src/api/types';
import { isEvidenced, NO_REPORT } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { h, message } from '../ui/dom';
import { renderMarkdown } from './markdown';
import { safeUrl, withoutSourceList } from './citations';
import { render, state } from './state';

export async function loadSelectedReport(): Promise<void> {
  try {
    state.report = await server.getSelectedRowReport();
  } catch (error) {
    state.report = { ...NO_REPORT, message: errorText(error) };
  }
  render();
}

function reportBody(report: TaskReport): HTMLElement {
  if (report.kind === 'markdown') {
    const article = h('article', { class: 'report', id: 'report-html' });
    article.innerHTML = renderMarkdown(
      report.sources.length ? withoutSourceList(report.markdown) : report.markdown,
      report.sources,
    );
    const sources = h(
      'ol',
      { class: 'sources', id: 'report-sources' },
      ...report.sources.map((source) => {
        const url = safeUrl(source.url);
        return h(
          'li',
          { value: String(source.id) },
          url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url) : String(source.url),
        );
      }),
    );
    return h(
      'div',
      {},
      article,
      report.sources.length ? h('h2', {}, 'Sources') : null,
      report.sources.length ? sources : null,
    );
  }
  return h(
    'table',
    { id: 'report-fields' },
    ...Object.entries(report.fields).map(([name, value]) => {
      const shown = isEvidenced(value) ? value.value : value;
      const text = Array.isArray(shown)
        ? shown.join(', ')
        : typeof shown === 'object' && shown !== null
          ? JSON.stringify(shown)
          : String(shown ?? '');
      return h(
        'tr',
        {},
        h('th', {}, name),
        h(
          'td',
          {},
          text,
          isEvidenced(value)
            ? h(
                'div',
                { class: 'muted' },
                value.reasoning,
                ...value.sources.map((url) => {
                  const safe = safeUrl(url);
                  return safe
                    ? h(
                        'div',
                        { class: 'sources' },
                        h('a', { href: safe, target: '_blank', rel: 'noopener noreferrer' }, safe),
                      )
                    : null;
                }),
              )
            : null,
        ),
      );
    }),
  );
}

export function reportTab(): HTMLElement {
  const dto = state.report;
  const parts: Array<HTMLElement | null> = [
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', id: 'show-selected', onclick: () => void loadSelectedReport() },
        "Show the selected row's report",
      ),
    ),
  ];
  if (!dto) parts.push(h('div', { class: 'muted' }, 'Loading…'));
  else if (!dto.found) parts.push(h('div', { class: 'muted' }, dto.message ?? 'No report'));
  else {
    parts.push(
      h(
        'div',
        { class: 'muted' },
        `${dto.row ? `Row ${dto.row}` : 'Task'} · ${dto.status ?? ''}${dto.detached ? ' · row changed or deleted since launch' : ''}`,
      ),
      // The brief once: above a report that does not quote it already.
      dto.brief && !(dto.report?.kind === 'markdown' && dto.report.markdown.includes(dto.brief))
        ? h('div', { class: 'preview', id: 'report-brief' }, dto.brief)
        : null,
      dto.error ? message('error', dto.error) : null,
      dto.report ? reportBody(dto.report) : dto.error ? null : h('div', { class: 'muted' }, 'No report yet'),
    );
  }
  return h('section', {}, ...parts);
}
