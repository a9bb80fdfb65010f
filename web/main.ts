import { startAccuracyPage } from './accuracy/accuracy-page';
import { startAuditPage } from './audit/audit-page';
import { startLivePage } from './live/live-page';
import { startMintPage } from './mint/mint-page';

/** The one script of every dashboard page: the server names the page in `<body data-page>`. */
const PAGES: Record<string, (main: HTMLElement) => void> = {
  live: startLivePage,
  accuracy: startAccuracyPage,
  audit: startAuditPage,
  mint: startMintPage,
};

const main = document.getElementById('main');
const start = PAGES[document.body.dataset.page ?? ''];
if (main && start) start(main);
