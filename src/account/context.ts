// Builds the account service of one execution from the app context: the settings stores, a client factory for a
// token being verified, and the document cache whose formula lookups are cleared when sharing stops.
import { appContext } from '../platform/app-context';
import { createServiceClient } from '../api/client';
import { AccountService } from './service';

export function accountContext(): AccountService {
  const context = appContext();
  return new AccountService(
    context.stores,
    (settings) => createServiceClient({ http: context.http, clock: context.clock, settings }),
    { formulaCache: context.cache, now: () => context.clock.now() },
  );
}
