// Entry of the "Tables > Map columns..." dialog (dist/Tables.html): the shared look, the dialog's wide layout, and
// the dialog itself.
import '../ui/styles.css';
import '../tables/tables.css';
import { startTablesDialog } from '../tables/dialog';

startTablesDialog(document.getElementById('app') as HTMLElement);
