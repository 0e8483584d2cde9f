// Builds the background work's ports for one execution: the document's properties and records and the acting user's
// client, as research's context has them (the saved runs are research's account watches and research on new rows).
import { researchContext } from '../research/context';
import type { BackgroundPorts } from './service';

export function backgroundContext(): BackgroundPorts {
  const r = researchContext();
  return { document: r.document, records: r.records.records, user: () => r.deps.client.getUser() };
}
