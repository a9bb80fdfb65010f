import type { InfoAnswer, WsTradeFrame } from './hyperliquid-wire-server';
import type { PerpsSimulator, SimTrade } from './perps-simulator';
import { fundingRate, openInterest, prevDayPx, premium } from './sim-markets';
import type { SimWallet } from './sim-wallets';

/**
 * The simulator's state in Hyperliquid's wire format, request by request: numbers as decimal strings, the same
 * field names and nesting the real `POST /info` answers carry (see clients/hyperliquid/hyperliquid-wire.ts,
 * which parses both). Request types the simulator does not model answer 422 with Hyperliquid's own text for a
 * body it cannot read.
 */
/** Decimal string without exponent, at most `digits` decimals, trailing zeros trimmed to one ("26951.0"). */
export function dec(n: number, digits = 6): string {
  const s = (Math.abs(n) < 1e-12 ? 0 : n).toFixed(digits);
  const t = s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '.0') : `${s}.0`;
  return t === '-0.0' ? '0.0' : t;
}
/** Prices with five significant figures, as Hyperliquid quotes them. */
export function px(n: number): string {
  const digits = Math.max(0, Math.min(8, 4 - Math.floor(Math.log10(Math.abs(n) || 1))));
  return dec(Number(n.toFixed(digits)), digits);
}

export function simInfoAnswer(sim: PerpsSimulator, body: Record<string, unknown>): InfoAnswer {
  const json = (v: unknown): InfoAnswer => ({ status: 200, body: JSON.stringify(v) });
  const markets = [...sim.markets.values()];
  const user = typeof body.user === 'string' ? body.user : '';
  switch (body.type) {
    case 'meta':
      return json(meta(sim));
    case 'metaAndAssetCtxs':
      return json([
        meta(sim),
        markets.map((m) => ({
          funding: dec(fundingRate(m), 8),
          openInterest: dec(openInterest(m), m.spec.szDecimals),
          prevDayPx: px(prevDayPx(m)),
          dayNtlVlm: dec(m.volumeSum, 2),
          premium: dec(premium(m), 8),
          oraclePx: px(m.oraclePx),
          markPx: px(m.markPx),
          midPx: px(m.markPx),
          impactPxs: [px(m.markPx * 0.9999), px(m.markPx * 1.0001)],
          dayBaseVlm: dec(m.volumeSum / m.markPx, m.spec.szDecimals),
        })),
      ]);
    case 'allMids':
      return json(Object.fromEntries(markets.map((m) => [m.spec.name, px(m.markPx)])));
    case 'clearinghouseState':
      return json(clearinghouseState(sim, sim.wallet(user)));
    case 'userFills':
      return json(fills(sim.wallet(user), -Infinity, Infinity));
    case 'userFillsByTime':
      return json(fills(sim.wallet(user), Number(body.startTime ?? 0), body.endTime === undefined ? Infinity : Number(body.endTime)));
    case 'fundingHistory': {
      const m = sim.markets.get(String(body.coin));
      const start = Number(body.startTime ?? 0);
      const end = body.endTime === undefined ? Infinity : Number(body.endTime);
      const list = m ? m.fundingHistory.filter((f) => f.time >= start && f.time <= end) : [];
      return json(list.slice(0, 500).map((f) => ({ coin: m!.spec.name, fundingRate: dec(f.rate, 8), premium: dec(f.premium, 8), time: f.time })));
    }
    default:
      return { status: 422, body: 'Failed to deserialize the JSON body into the target type' };
  }
}

function meta(sim: PerpsSimulator) {
  return { universe: [...sim.markets.values()].map((m) => ({ name: m.spec.name, szDecimals: m.spec.szDecimals, maxLeverage: m.spec.maxLeverage })) };
}

function clearinghouseState(sim: PerpsSimulator, w: SimWallet | undefined) {
  let ntl = 0;
  let upnl = 0;
  let margin = 0;
  const assetPositions = [...(w?.positions.values() ?? [])].map((p) => {
    const m = sim.markets.get(p.market)!;
    const value = Math.abs(p.size) * m.markPx;
    const pnl = (m.markPx - p.entryPx) * p.size;
    const used = value / p.leverage;
    ntl += value;
    upnl += pnl;
    margin += used;
    return {
      type: 'oneWay',
      position: {
        coin: p.market,
        szi: dec(p.size, m.spec.szDecimals),
        entryPx: px(p.entryPx),
        positionValue: dec(value, 6),
        unrealizedPnl: dec(pnl, 6),
        returnOnEquity: dec(pnl / ((Math.abs(p.size) * p.entryPx) / p.leverage), 8),
        leverage: { type: 'isolated', value: p.leverage, rawUsd: dec(-p.size * p.entryPx + used, 6) },
        liquidationPx: px(p.liquidationPx),
        marginUsed: dec(used, 6),
        maxLeverage: m.spec.maxLeverage,
      },
    };
  });
  const accountValue = (w?.equity ?? 0) + upnl;
  const summary = { accountValue: dec(accountValue, 6), totalNtlPos: dec(ntl, 6), totalRawUsd: dec(accountValue - ntl, 6), totalMarginUsed: dec(margin, 6) };
  return { assetPositions, marginSummary: summary, crossMarginSummary: summary, withdrawable: dec(Math.max(0, accountValue - margin), 6), time: sim.now };
}

function fills(w: SimWallet | undefined, start: number, end: number) {
  const list = (w?.fills ?? []).filter((f) => f.time >= start && f.time <= end);
  // Hyperliquid answers newest first.
  return list.reverse().map((f) => ({
    coin: f.coin,
    px: px(f.px),
    sz: dec(f.sz, 6),
    side: f.side,
    time: f.time,
    startPosition: dec(f.startPosition, 6),
    dir: f.dir,
    closedPnl: dec(f.closedPnl, 6),
    hash: f.hash,
    oid: f.oid,
    crossed: true,
    fee: dec(f.fee, 6),
    tid: f.tid,
    feeToken: 'USDC',
    ...(f.liquidation ? { liquidation: { liquidatedUser: f.liquidation.liquidatedUser, markPx: px(f.liquidation.markPx), method: f.liquidation.method } } : {}),
  }));
}

export function simTradeFrame(t: SimTrade): WsTradeFrame {
  return { coin: t.coin, side: t.side, px: px(t.px), sz: dec(t.sz, 6), hash: t.hash, time: t.time, tid: t.tid, users: [t.buyer, t.seller] };
}
