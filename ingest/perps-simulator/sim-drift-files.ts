import bs58 from 'bs58';
import { DRIFT_TRADE_COLUMNS } from '../../clients/drift/drift-trade-row';
import { SeededRandom } from '../simulator/seeded-random';

/**
 * Drift `tradeRecords` day files made by code from the published schema (the glossary's columns, a header line,
 * Python-style decimals such as "100.0"), never copied data. Values follow the columns' meaning: quote =
 * base × price, fees a few bps of quote, an AMM fill has no maker.
 */
export type FixtureTrade = {
  taker: string;
  maker: string | null;
  direction: 'long' | 'short';
  base: number;
  quote: number;
  price: number;
  ts: number;
  fillRecordId: number;
  takerFee: number;
  makerFee: number;
};

export function pubkey(rng: SeededRandom): string {
  return bs58.encode(rng.bytes(32));
}

const py = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));
const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;

export function driftTradeFile(o: {
  date: string;
  rows: number;
  seed: number;
  marketIndex?: number;
  traders?: string[];
  startPrice?: number;
  firstFillRecordId?: number;
}): {
  csv: string;
  trades: FixtureTrade[];
} {
  const rng = SeededRandom.derive(o.seed, 'drift-fixture', o.date);
  const traders = o.traders ?? Array.from({ length: 8 }, () => pubkey(rng));
  const program = 'dRiftyHA39MWEi3m9aunc5MzRF1JYuBsbn6VPcn33UH';
  const dayStart = Date.parse(`${o.date}T00:00:00Z`) / 1000;
  let price = o.startPrice ?? 100;
  const trades: FixtureTrade[] = [];
  const lines = [DRIFT_TRADE_COLUMNS.join(',')];
  for (let i = 0; i < o.rows; i++) {
    price = round(price * Math.exp(rng.normal() * 0.002), 4);
    const base = round(rng.lognormal(2, 1), 3) || 0.001;
    const quote = round(base * price, 6);
    const taker = rng.pick(traders);
    const amm = rng.chance(0.4);
    const maker = amm ? null : rng.pick(traders.filter((t) => t !== taker));
    const direction = rng.chance(0.5) ? 'long' : 'short';
    const takerFee = round(quote * 0.00035, 6);
    const makerFee = amm ? 0 : round(-quote * 0.00002, 6);
    const ts = dayStart + Math.floor((i * 86_400) / Math.max(1, o.rows));
    const fillRecordId = (o.firstFillRecordId ?? 1_000_000) + i;
    trades.push({ taker, maker, direction, base, quote, price, ts, fillRecordId, takerFee, makerFee });
    const v: Record<(typeof DRIFT_TRADE_COLUMNS)[number], string> = {
      fillerReward: '0.0',
      baseAssetAmountFilled: py(base),
      quoteAssetAmountFilled: py(quote),
      takerFee: py(takerFee),
      makerRebate: py(-makerFee),
      referrerReward: '0.0',
      quoteAssetAmountSurplus: '0.0',
      takerOrderBaseAssetAmount: py(base),
      takerOrderCumulativeBaseAssetAmountFilled: py(base),
      takerOrderCumulativeQuoteAssetAmountFilled: py(quote),
      makerOrderBaseAssetAmount: amm ? '0.0' : py(base),
      makerOrderCumulativeBaseAssetAmountFilled: amm ? '0.0' : py(base),
      makerOrderCumulativeQuoteAssetAmountFilled: amm ? '0.0' : py(quote),
      oraclePrice: py(price),
      makerFee: py(makerFee),
      txSig: bs58.encode(rng.bytes(64)),
      slot: String(250_000_000 + Math.floor((ts - dayStart) * 2.5)),
      ts: String(ts),
      action: 'fill',
      actionExplanation: amm ? 'orderFilledWithAmm' : 'orderFilledWithMatch',
      marketIndex: String(o.marketIndex ?? 0),
      marketType: 'perp',
      filler: pubkey(rng),
      fillRecordId: String(fillRecordId),
      taker,
      takerOrderId: String(rng.int(1, 100_000)),
      takerOrderDirection: direction,
      maker: maker ?? '',
      makerOrderId: amm ? '' : String(rng.int(1, 100_000)),
      makerOrderDirection: amm ? '' : direction === 'long' ? 'short' : 'long',
      spotFulfillmentMethodFee: '0.0',
      programId: program,
    };
    lines.push(DRIFT_TRADE_COLUMNS.map((c) => v[c]).join(','));
  }
  return { csv: `${lines.join('\n')}\n`, trades };
}
