import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PerpsSimulator } from './perps-simulator';
import { dec } from './sim-info-answers';

/** Where Hyperliquid's stats host serves the leaderboard (`https://stats-data.hyperliquid.xyz` + this path). */
export const SIM_LEADERBOARD_PATH = '/Mainnet/leaderboard';

const WINDOWS: readonly [string, number][] = [
  ['day', 86_400_000],
  ['week', 7 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['allTime', Infinity],
];

/**
 * The simulated exchange's leaderboard in the stats host's wire format: every wallet with its equity as
 * `accountValue` and, per window, the PnL of its fills in it (closed PnL less fees), their volume, and PnL over
 * equity as `roi`. The real one is ordered by nothing a client may rely on; this one lists wallets in creation order.
 */
export function simLeaderboard(sim: PerpsSimulator, nowMs: number) {
  return {
    leaderboardRows: sim.wallets.map((w) => ({
      ethAddress: w.address,
      accountValue: dec(w.equity, 6),
      windowPerformances: WINDOWS.map(([name, span]) => {
        let pnl = 0;
        let vlm = 0;
        for (const f of w.fills) {
          if (nowMs - f.time > span) continue;
          pnl += f.closedPnl - f.fee;
          vlm += f.px * f.sz;
        }
        return [name, { pnl: dec(pnl, 6), roi: dec(pnl / w.equity, 10), vlm: dec(vlm, 2) }];
      }),
      prize: 0,
      displayName: null,
    })),
  };
}

export function handleSimLeaderboard(sim: PerpsSimulator, now: () => number, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== SIM_LEADERBOARD_PATH) return false;
  sim.advanceTo(now());
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(simLeaderboard(sim, now())));
  return true;
}
