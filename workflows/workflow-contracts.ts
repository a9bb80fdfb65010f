import { OPS_CONTRACTS } from './ops/ops-contracts';
import { MARKET_CONTRACTS } from './market/market-contracts';
import { MINT_CONTRACTS } from './mint/mint-contracts';
import { LIVE_CONTRACTS } from './live/live-contracts';
import { ACCURACY_CONTRACTS } from './accuracy/accuracy-contracts';
import { ACCESS_CONTRACTS } from './access/access-contracts';
import { BILLING_CONTRACTS } from './billing/billing-contracts';
import { WALLETS_CONTRACTS } from './wallets/wallets-contracts';
import { SIGNALS_CONTRACTS } from './signals/signals-contracts';
import { PERPS_CONTRACTS } from './perps/perps-contracts';
import { LEDGER_CONTRACTS } from './ledger/ledger-contracts';
import { VERDICT_CONTRACTS } from './verdict/verdict-contracts';
import { HISTORY_CONTRACTS } from './history/history-contracts';
import { PAPER_CONTRACTS } from './paper/paper-contracts';
import { WEBHOOKS_CONTRACTS } from './webhooks/webhooks-contracts';
import { ALERTS_CONTRACTS } from './alerts/alerts-contracts';
import { METADATA_CONTRACTS } from './metadata/metadata-contracts';
import type { WorkflowContract } from './workflow-contract';

/** Every workflow type's contract, by area; the worker derives its Schedules and the watchdog's deadlines from them. */
export const WORKFLOW_CONTRACTS: readonly WorkflowContract[] = [
  ...OPS_CONTRACTS,
  ...MARKET_CONTRACTS,
  ...MINT_CONTRACTS,
  ...LIVE_CONTRACTS,
  ...ACCURACY_CONTRACTS,
  ...ACCESS_CONTRACTS,
  ...BILLING_CONTRACTS,
  ...WALLETS_CONTRACTS,
  ...SIGNALS_CONTRACTS,
  ...PERPS_CONTRACTS,
  ...LEDGER_CONTRACTS,
  ...VERDICT_CONTRACTS,
  ...HISTORY_CONTRACTS,
  ...PAPER_CONTRACTS,
  ...WEBHOOKS_CONTRACTS,
  ...ALERTS_CONTRACTS,
  ...METADATA_CONTRACTS,
];
