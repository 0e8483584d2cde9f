// The Settings panel's "Digest": where this spreadsheet's digest of the account watch's signals and the refresh's
// changes goes (a Slack or Google Chat incoming webhook), how often (weekly on a chosen day, or after each run), who set
// it (their Sheet Scout posts it from its timer), the last post or why it failed and when it is tried again; setting
// it (the webhook's address is typed into a password field and never shown again), sending the digest now, and
// stopping it. One element kept across the panel's re-renders; it loads its own state.
import { SANDBOX_WEBHOOK_HINT, type DigestAnswer, type DigestDto } from '../../src/digest/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { selfLoadingSection } from './self-loading';

const section = h('section', { id: 'digest' });
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
let shown: DigestDto | null = null;
let editing = false;
let sandbox = false;

type Note = { kind: 'ok' | 'error'; text: string };

function form(state: DigestDto): HTMLElement {
  const digest = state.digest;
  const url = h('input', {
    type: 'password',
    id: 'digest-webhook',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: digest?.postedByYou ? 'Keep the webhook set' : 'https://hooks.slack.com/services/…',
  }) as HTMLInputElement;
  const cadence = h(
    'select',
    { id: 'digest-cadence' },
    h('option', { value: 'weekly', selected: digest?.cadence !== 'run' }, 'Weekly'),
    h('option', { value: 'run', selected: digest?.cadence === 'run' }, 'After each watch run and refresh'),
  ) as HTMLSelectElement;
  const weekday = h(
    'select',
    { id: 'digest-weekday' },
    ...WEEKDAYS.map((day, i) => h('option', { value: String(i), selected: i === (digest?.weekday ?? 1) }, day)),
  ) as HTMLSelectElement;
  return h(
    'form',
    {
      id: 'digest-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const request = {
          webhookUrl: url.value,
          cadence: cadence.value as 'weekly' | 'run',
          weekday: Number(weekday.value),
        };
        void act(() => server.setDigest(request));
      },
    },
    h('label', { for: 'digest-webhook' }, 'Slack or Google Chat incoming webhook'),
    url,
    sandbox ? h('p', { class: 'muted', id: 'digest-sandbox' }, SANDBOX_WEBHOOK_HINT) : null,
    h('label', { for: 'digest-cadence' }, 'Post'),
    cadence,
    h('label', { for: 'digest-weekday' }, 'On (weekly, after 08:00)'),
    weekday,
    h('div', { class: 'row' }, h('button', { class: 'primary', type: 'submit', id: 'digest-save' }, 'Save digest')),
  );
}

function summary(state: DigestDto): HTMLElement | null {
  const digest = state.digest;
  if (!digest) return null;
  const when =
    digest.cadence === 'weekly'
      ? `weekly on ${WEEKDAYS[digest.weekday]} after ${String(digest.hour).padStart(2, '0')}:00`
      : 'after each watch run and refresh';
  const last = digest.lastPost
    ? `Last posted ${inSpreadsheetZone(digest.lastPost.at, state.timeZone)} (${digest.lastPost.rows} changed rows).`
    : 'Nothing posted yet.';
  const next = digest.nextAt ? ` Next: ${inSpreadsheetZone(digest.nextAt, state.timeZone)}.` : '';
  return h(
    'div',
    { id: 'digest-summary' },
    h('p', {}, `${digest.label}, ${when}.`),
    h(
      'p',
      { class: 'muted', id: 'digest-owner' },
      digest.postedByYou
        ? 'Set by you: your Sheet Scout posts it, with every panel closed.'
        : `Set by ${digest.setBy}: their Sheet Scout posts it.`,
    ),
    h('p', { class: 'muted', id: 'digest-last' }, `${last}${next}`),
    digest.problem
      ? message(
          'warn',
          `Last try failed: ${digest.problem.message}. Tried again ${inSpreadsheetZone(digest.problem.retryAt, state.timeZone)}; nothing is lost.`,
        )
      : null,
  );
}

function render(state: DigestDto | null, note?: Note): void {
  shown = state;
  const digest = state?.digest ?? null;
  const buttons = digest
    ? h(
        'div',
        { class: 'row' },
        digest.postedByYou
          ? h(
              'button',
              { type: 'button', id: 'digest-send', onclick: () => void act(() => server.sendDigestNow()) },
              'Send now',
            )
          : null,
        editing
          ? null
          : h(
              'button',
              { type: 'button', id: 'digest-change', onclick: () => ((editing = true), render(shown)) },
              'Change',
            ),
        h(
          'button',
          { type: 'button', id: 'digest-stop', onclick: () => void act(() => server.removeDigest()) },
          'Stop digest',
        ),
      )
    : null;
  replaceChildren(
    section,
    h('h2', {}, 'Digest'),
    !state
      ? h('p', { class: 'muted' }, 'Loading…')
      : digest
        ? summary(state)
        : h(
            'p',
            { class: 'muted', id: 'digest-none' },
            "Post the account watch's signals and the refresh's changes, with what the runs cost, where your team works.",
          ),
    buttons,
    state && (!digest || editing) ? form(state) : null,
    note ? message(note.kind, note.text) : null,
  );
}

async function act(call: () => Promise<DigestAnswer>): Promise<void> {
  try {
    const answer = await call();
    if (answer.ok) editing = false;
    render(answer.state, { kind: answer.ok ? 'ok' : 'error', text: answer.message });
  } catch (error) {
    render(shown, { kind: 'error', text: errorText(error) });
  }
}

const loadedSection = selfLoadingSection(section, {
  load: () => server.getDigest(),
  render,
  failed: (text) => render(null, { kind: 'error', text }),
});

/** The section (loads its state the first time it is shown); `local`: the service is the playground's sandbox. */
export function digestSection(local: boolean): HTMLElement {
  sandbox = local;
  return loadedSection();
}
