// Settings sidebar (menu: Settings): the API token, the connected account, formula sharing, the daily request budget
// and the research spending cap.
import '../ui/styles.css';
import { mountSettingsPanel } from '../settings/panel';

mountSettingsPanel(document.getElementById('app') as HTMLElement);
