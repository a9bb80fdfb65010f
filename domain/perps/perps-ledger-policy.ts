import { utcHourStart } from '../ledger/ledger-hour';

/**
 * When an hour of smart entries is closed for the perps ledger track. An entry's `detected_at` is its snapshot's
 * time and the row is written by the same snapshot batch, which may run (or be retried) for up to 15 minutes
 * (its activity's start-to-close timeout); an hour is committed only once 20 minutes have passed after its end, so
 * no entry can still arrive in a committed hour.
 */
export const PERPS_LEDGER_SETTLE_MS = 20 * 60_000;

/** Hours starting before this instant are closed: the start of the hour that ended at least the settle time ago. */
export function perpsLedgerCutoff(now: Date): Date {
  return utcHourStart(new Date(now.getTime() - PERPS_LEDGER_SETTLE_MS));
}
