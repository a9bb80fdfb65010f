import { DRIFT_DATA_ENDS } from '../../domain/perps/drift-trade';

/**
 * Where Drift's v2 historical data keeps a day of trade records, relative to the program prefix
 * (`https://drift-historical-data-v2.s3.eu-west-1.amazonaws.com/program/dRiftyHA39MWEi3m9aunc5MzRF1JYuBsbn6VPcn33UH`):
 * `market/<marketSymbol>/tradeRecords/<yyyy>/<yyyymmdd>` per market, `user/<accountKey>/tradeRecords/<yyyy>/<yyyymmdd>`
 * per user sub-account (the sub-account key, not the wallet that owns it). Days are UTC.
 */
export type DriftFileRef = { kind: 'market'; market: string; date: string } | { kind: 'user'; account: string; date: string };

const MARKET = /^[A-Za-z0-9._-]{1,64}$/;
const ACCOUNT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export class DriftFileRefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DriftFileRefError';
  }
}

export function driftFileKey(ref: DriftFileRef): string {
  const m = DATE.exec(ref.date);
  if (!m || new Date(`${ref.date}T00:00:00Z`).toISOString().slice(0, 10) !== ref.date) throw new DriftFileRefError(`not a date: ${ref.date}`);
  if (ref.date > DRIFT_DATA_ENDS) throw new DriftFileRefError(`Drift published no files after ${DRIFT_DATA_ENDS}: ${ref.date}`);
  const [, y, mo, d] = m;
  const day = `${y}/${y}${mo}${d}`;
  if (ref.kind === 'market') {
    if (!MARKET.test(ref.market) || /^\.+$/.test(ref.market)) throw new DriftFileRefError(`not a market symbol: ${ref.market}`);
    return `market/${ref.market}/tradeRecords/${day}`;
  }
  if (!ACCOUNT.test(ref.account)) throw new DriftFileRefError(`not an account key: ${ref.account}`);
  return `user/${ref.account}/tradeRecords/${day}`;
}
