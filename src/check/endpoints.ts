// Server functions of Settings' "Check this installation" (google.script.run), and the menu item that opens it.
import { appContext } from '../platform/app-context';
import { showPanel } from '../platform/panels';
import { DOCUMENTLESS_KEY } from '../scheduler/timer-unavailable';
import { timerStartAllowanceMs } from '../scheduler/runtime-budget';
import { readCheck, readTimerProbe, settledFetchAllWidth } from '../shared/installation';
import { runInstallationCheck } from './service';
import { checkContext } from './context';
import type { InstallationCheckState } from './contract';

const REQUESTED_KEY = 'sheetscout.check.requested';

/** Menu: Extensions > Sheet Scout > Help > Check this installation... (Settings, at its check). */
export function showInstallationCheck(): void {
  appContext().stores.user.set(REQUESTED_KEY, '1');
  showPanel('Settings', 'Sheet Scout settings');
}

/** Settings: the last check, what the timer probe found since, and the switches in force. */
export function getInstallationCheck(): InstallationCheckState {
  const user = appContext().stores.user;
  const requested = user.get(REQUESTED_KEY) !== null;
  if (requested) user.remove(REQUESTED_KEY);
  return {
    last: readCheck(user),
    timer: readTimerProbe(user),
    documentlessAt: Number(user.get(DOCUMENTLESS_KEY)) || null,
    requested,
    switches: { fetchAllWidth: settledFetchAllWidth(user), timerStartMs: timerStartAllowanceMs(user) },
  };
}

/** The panel times this call's round trip (it does nothing else) before it asks for the check. */
export function pingInstallation(): number {
  return appContext().clock.now();
}

/** Settings' "Run the check": the probes, with the round trip the panel timed (ms, or null). */
export function checkInstallation(roundTripMs: unknown): InstallationCheckState {
  const ms = typeof roundTripMs === 'number' && roundTripMs >= 0 && roundTripMs < 600_000 ? roundTripMs : null;
  runInstallationCheck(checkContext(), ms);
  return getInstallationCheck();
}
