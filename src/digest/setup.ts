// Settings > Digest: the digest as every editor sees it (never its webhook's address), setting it, changing how often
// it goes, and stopping it. A webhook is checked before anything is kept: its address must be a Slack or Google Chat
// incoming webhook's (webhook.ts), the timer that will post it with the panels closed must be there (the setter's
// own: the address is in their user properties), and the service must take a first message saying what will come
// ("Sheet Scout will post a weekly digest of ... here"). The digest of a webhook set again keeps gathering from where
// the last one stopped, so nothing waiting is lost. Anyone may replace or stop a digest (who set it is shown); each
// editor's Settings shows who set it and whose timer posts it.
import type { DigestAnswer, DigestDto, DigestRequest } from './contract';
import type { DigestPorts } from './ports';
import { postRequest, postResult } from './post';
import { spreadsheetLink } from './compose';
import { nextWeekly } from './service';
import {
  readConfig,
  readSecret,
  readState,
  removeConfig,
  removeSecret,
  writeConfig,
  writeSecret,
  type DigestConfig,
} from './settings';
import { parseWebhook, SERVICE_NAMES } from './webhook';
import { removeTimerIfIdle, reserveTimer, wakeTimerAt } from '../scheduler/timer';

/** The hour a weekly digest goes (after the watches' and refreshes' 06:00 runs have had their ticks). */
export const DIGEST_HOUR = 8;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function digestDto(p: DigestPorts): DigestDto {
  const config = readConfig(p.document);
  if (!config) return { digest: null, timeZone: p.timeZone() };
  const state = readState(p.document, config);
  return {
    digest: {
      service: config.service,
      label: config.label,
      cadence: config.cadence,
      weekday: config.weekday,
      hour: config.hour,
      setBy: config.setBy,
      setAt: config.setAt,
      postedByYou: readSecret(p.user, p.spreadsheet().id, config) !== null,
      lastPost: state.lastPost,
      nextAt: config.cadence === 'weekly' && !state.failure ? state.nextAt : null,
      problem: state.failure
        ? { message: state.failure.message, since: state.failure.since, retryAt: state.failure.retryAt }
        : null,
      posts: state.posts,
    },
    timeZone: p.timeZone(),
  };
}

const answer = (p: DigestPorts, ok: boolean, message: string): DigestAnswer => ({ ok, message, state: digestDto(p) });

function cadenceWords(config: Pick<DigestConfig, 'cadence' | 'weekday' | 'hour'>): string {
  return config.cadence === 'weekly'
    ? `every ${WEEKDAYS[config.weekday]} after ${String(config.hour).padStart(2, '0')}:00`
    : 'after each account watch run and refresh';
}

/** Sets the spreadsheet's digest (or, with no address typed, changes how often the acting user's goes). */
export function saveDigest(p: DigestPorts, request: DigestRequest): DigestAnswer {
  if (!Number.isInteger(request.weekday) || request.weekday < 0 || request.weekday > 6)
    return answer(p, false, 'Pick the day of the week the digest goes');
  const current = readConfig(p.document);
  const spreadsheetId = p.spreadsheet().id;
  const keptUrl = current ? readSecret(p.user, spreadsheetId, current) : null;
  const typed = request.webhookUrl.trim();
  if (typed === '' && !keptUrl) return answer(p, false, "Paste the Slack or Google Chat incoming webhook's address");
  const webhook = parseWebhook(typed === '' ? (keptUrl as string) : typed);
  if ('problem' in webhook) return answer(p, false, webhook.problem);
  const who = p.whoAmI();
  if ('problem' in who)
    return answer(p, false, `The digest records who set it: connect your Sheet Scout account first (${who.problem})`);
  const timer = reserveTimer(p.timer, 'digest', { ownTimer: true });
  if (timer?.closedPanelsOnly) return answer(p, false, `Nothing was saved: ${timer.message}`);
  const now = p.clock.now();
  const config: DigestConfig = {
    id: typed === '' && current ? current.id : p.newId(),
    service: webhook.service,
    label: webhook.label,
    cadence: request.cadence,
    weekday: request.weekday,
    hour: DIGEST_HOUR,
    setBy: who.email,
    setAt: now,
  };
  const name = SERVICE_NAMES[webhook.service];
  if (typed !== '') {
    const hello =
      `Sheet Scout will post a digest of ${spreadsheetLink(webhook.service, p.spreadsheet())} here ` +
      `${cadenceWords(config)}: the account watch's signals, the refresh's changes, the new rows filled, the runs ` +
      'that did nothing and what the runs cost.';
    const [outcome] = p.http.fetchAll([postRequest(webhook.service, webhook.url, hello, `${config.id}-hello`)]);
    const result = postResult(webhook.service, outcome, 1, now);
    if (!result.ok) return answer(p, false, `Nothing was saved: ${result.message.replace(/: the webhook.*$/, '')}`);
  }
  const previous = current ? readState(p.document, current) : null;
  const nextAt = config.cadence === 'weekly' ? nextWeekly(p, config, now) : null;
  writeSecret(p.user, spreadsheetId, config.id, webhook.url);
  writeConfig(p.document, config, {
    since: previous?.since ?? now,
    nextAt,
    lastPost: previous?.lastPost ?? null,
    failure: null,
    posts: previous?.posts ?? 0,
    carried: previous?.carried ?? [],
    filled: previous?.filled ?? p.activity(now, undefined).filledTotals,
  });
  wakeTimerAt(p.timer, 'digest', nextAt);
  const note = timer ? ` ${timer.message}` : '';
  return answer(p, true, `The digest goes to ${name} ${cadenceWords(config)}.${note}`);
}

/** Stops the spreadsheet's digest: its settings, the acting user's webhook, and what waited for it. */
export function stopDigest(p: DigestPorts, clearWaiting: () => void): DigestAnswer {
  const current = readConfig(p.document);
  if (!current) return answer(p, true, 'No digest was set');
  removeConfig(p.document);
  removeSecret(p.user, p.spreadsheet().id);
  clearWaiting();
  removeTimerIfIdle(p.timer, 'digest');
  return answer(p, true, `The digest stopped: nothing more goes to ${SERVICE_NAMES[current.service]}`);
}
