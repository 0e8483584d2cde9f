// Research sidebar (menu: Research selected rows...): launch research for the selected rows, follow the tasks, read
// the reports.
import '../ui/styles.css';
import '../research/research.css';
import { mountResearchPanel } from '../research/panel';

mountResearchPanel(document.getElementById('app') as HTMLElement);
