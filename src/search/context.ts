// Builds the search feature's ports for one execution from the app context: the sheets, the user's client (null
// without a token; the full client serves both the search and the lookalike-list runs), the cache, the user's store,
// the clock, the document lock and ids.
import { userConnection } from '../shared/connection';
import { appContext } from '../platform/app-context';
import { createSheetAdapter } from './adapters/sheets';
import { newId } from '../platform/ids';
import type { SearchDeps } from './service';
import type { LookalikeDeps } from './lookalikes/lookalike-service';

/** The ports of one execution; the user's full client serves both the search and the lookalike-list runs. */
export function searchContext(): SearchDeps & LookalikeDeps {
  const context = appContext();
  const connected = Boolean(userConnection(context.stores).token);
  return {
    sheets: createSheetAdapter(),
    client: connected ? context.userClient() : null,
    cache: context.cache,
    userStore: context.stores.user,
    clock: context.clock,
    lock: context.documentLock(),
    newId,
  };
}
