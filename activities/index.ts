import { createMarketConditionsActivities, type MarketConditionsDeps } from './market/market-conditions-activities';
import { createAccuracyActivities, type AccuracyDeps } from './accuracy/accuracy-activities';
import { createWalletSignupActivities, type WalletSignupDeps } from './access/wallet-signup-activities';
import { createPaymentActivities, type PaymentDeps } from './billing/payment-activities';
import { createPaymentOutboxActivities, type PaymentOutboxDeps } from './billing/payment-outbox-activities';
import { createBurnActivities, type BurnDeps } from './billing/burn-activities';
import { createPriceActivities, type PriceDeps } from './market/price-activities';
import { createLiveProjector, type LiveProjectorDeps } from './mint/live-projector';
import { createMintActivities, type MintDeps } from './mint/mint-activities';
import { createWatchdogActivities, type WatchdogDeps } from './ops/watchdog-activities';

export type ActivityDeps = WatchdogDeps &
  PriceDeps &
  MarketConditionsDeps &
  MintDeps &
  LiveProjectorDeps &
  AccuracyDeps &
  WalletSignupDeps &
  PaymentDeps &
  PaymentOutboxDeps &
  BurnDeps;

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(d: ActivityDeps) {
  return {
    ...createWatchdogActivities(d),
    ...createPriceActivities(d),
    ...createMarketConditionsActivities(d),
    ...createMintActivities(d),
    ...createLiveProjector(d),
    ...createAccuracyActivities(d),
    ...createWalletSignupActivities(d),
    ...createPaymentActivities(d),
    ...createPaymentOutboxActivities(d),
    ...createBurnActivities(d),
  };
}
