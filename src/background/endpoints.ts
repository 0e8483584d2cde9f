// Server functions about the document's background work (called via google.script.run): the saved timer runs that
// cannot start as things stand (Settings, after a cap or token change), and the change stamp every open panel polls.
import { appContext } from '../platform/app-context';
import { changeStamp, savedRunProblems } from './service';
import { backgroundContext } from './context';
import type { SavedRunProblems } from './contract';

export function getSavedRunProblems(): SavedRunProblems {
  return savedRunProblems(backgroundContext());
}

/** The stamp of this document's last background change: a panel reads its sections again when it differs. */
export function getChangeStamp(): string {
  return changeStamp(appContext().documentStore());
}
