import type { z } from 'zod';
import type { MarketContext, WalletFill, WalletSnapshot } from '../../domain/perps/perps-types';
import type { clearinghouseStateWire, FillWire, metaAndAssetCtxsWire, WsTradeWire } from './hyperliquid-wire';

export type HlMarket = MarketContext & { szDecimals: number; isDelisted: boolean };
export type HlClearinghouseState = WalletSnapshot & { withdrawableUsd: number; totalNotionalUsd: number };

/** A trade from the `trades` stream; `buyer`/`seller` come from `users` ([buyer, seller] per the docs). */
export type HlTrade = {
  market: string;
  side: 'buy' | 'sell';
  px: number;
  size: number;
  notionalUsd: number;
  time: number;
  tid: number;
  hash: string;
  buyer: string;
  seller: string;
};

export function toMarkets([meta, ctxs]: z.output<typeof metaAndAssetCtxsWire>): HlMarket[] {
  return meta.universe.map((asset, i) => {
    const c = ctxs[i]!;
    return {
      market: asset.name,
      markPx: c.markPx,
      oraclePx: c.oraclePx,
      midPx: c.midPx ?? null,
      fundingRateHourly: c.funding,
      openInterestBase: c.openInterest,
      // Open interest is quoted in base units; its USD value is at the oracle price, as Hyperliquid's UI shows it.
      openInterestUsd: c.openInterest * c.oraclePx,
      volume24hUsd: c.dayNtlVlm,
      prevDayPx: c.prevDayPx,
      maxLeverage: asset.maxLeverage,
      szDecimals: asset.szDecimals,
      isDelisted: asset.isDelisted ?? false,
    };
  });
}

export function toClearinghouseState(user: string, s: z.output<typeof clearinghouseStateWire>, at = s.time ?? Date.now()): HlClearinghouseState {
  const positions = s.assetPositions
    .map(({ position: p }) => p)
    .filter((p) => p.szi !== 0)
    .map((p) => ({
      market: p.coin,
      side: p.szi > 0 ? ('long' as const) : ('short' as const),
      size: Math.abs(p.szi),
      // A position always has an entry price; null would be an empty slot, which szi ≠ 0 already excluded.
      entryPx: p.entryPx ?? p.positionValue / Math.abs(p.szi),
      positionValueUsd: p.positionValue,
      unrealizedPnlUsd: p.unrealizedPnl,
      leverage: p.leverage.value,
      leverageType: p.leverage.type,
      liquidationPx: p.liquidationPx,
      marginUsedUsd: p.marginUsed,
    }));
  return {
    wallet: user.toLowerCase(),
    at,
    accountValueUsd: s.marginSummary.accountValue,
    positions,
    withdrawableUsd: s.withdrawable,
    totalNotionalUsd: s.marginSummary.totalNtlPos,
  };
}

export function toWalletFill(f: FillWire): WalletFill {
  return {
    market: f.coin,
    px: f.px,
    size: f.sz,
    side: f.side === 'B' ? 'buy' : 'sell',
    time: f.time,
    startPosition: f.startPosition,
    dir: f.dir,
    closedPnlUsd: f.closedPnl,
    feeUsd: f.fee,
    hash: f.hash,
    tid: f.tid ?? null,
    liquidation: f.liquidation != null || /liquidat/i.test(f.dir),
  };
}

export function toTrade(t: WsTradeWire): HlTrade {
  return {
    market: t.coin,
    side: t.side === 'B' ? 'buy' : 'sell',
    px: t.px,
    size: t.sz,
    notionalUsd: t.px * t.sz,
    time: t.time,
    tid: t.tid,
    hash: t.hash,
    buyer: t.users[0].toLowerCase(),
    seller: t.users[1].toLowerCase(),
  };
}
