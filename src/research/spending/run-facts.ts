// The facts a saved timer run's start depends on, as this execution can know them (saved-runs.ts weighs them): the
// spreadsheet's spending cap, the payers who removed their token, and the credits of the acting user's account when
// its answer is at hand (a run paid by another editor is checked against their credits when they open the panel).
import type { Result } from '../../api/errors';
import type { User } from '../../api/types';
import type { KeyValueStore } from '../../ports';
import { tokenlessPayers } from '../../account/payers';
import { storedCap } from './guard-service';
import type { RunFacts } from './saved-runs';

export function runFacts(document: KeyValueStore, user: Result<User> | null): RunFacts {
  return {
    cap: storedCap(document),
    credits: new Map(user?.ok ? [[user.value.email.toLowerCase(), user.value.available_credits]] : []),
    tokenless: tokenlessPayers(document),
  };
}
