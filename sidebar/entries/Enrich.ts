// Bulk enrichment sidebar (menu: Enrich selected domains...): pick the domain column and fields, preview the counts,
// start, and watch the job's progress (the panel drives the job's chunks while it is open).
import '../ui/styles.css';
import '../enrichment/enrich.css';
import { mountEnrichPanel } from '../enrichment/panel';

mountEnrichPanel(document.getElementById('app') as HTMLElement);
