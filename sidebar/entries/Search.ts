// Company search sidebar (menu: Company search...): semantic and lookalike search with filters, results into a sheet.
import '../ui/styles.css';
import '../search/search.css';
import { mountSearchPanel } from '../search/panel';

mountSearchPanel(document.getElementById('app') as HTMLElement);
