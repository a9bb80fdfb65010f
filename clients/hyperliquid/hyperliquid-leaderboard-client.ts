import { z } from 'zod';
import type { LeaderboardEntry, LeaderboardWindowName } from '../../domain/perps/leaderboard-discovery';
import { HyperliquidError } from './hyperliquid-info-client';

const decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
  .transform(Number);
const windowWire = z.object({ pnl: decimal, roi: decimal, vlm: decimal });

/**
 * `GET https://stats-data.hyperliquid.xyz/Mainnet/leaderboard`: the leaderboard the exchange's web app shows, one
 * JSON document (about 25 MB, some 30,000 rows) of `{ leaderboardRows: [{ ethAddress, accountValue,
 * windowPerformances: [["day", { pnl, roi, vlm }], ["week", …], ["month", …], ["allTime", …]], prize,
 * displayName }] }`, decimals as strings. Not part of the weighted `/info` API, so it spends no request weight.
 */
export const leaderboardWire = z.object({
  leaderboardRows: z.array(
    z.object({
      ethAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
      accountValue: decimal,
      windowPerformances: z.array(z.tuple([z.string(), windowWire])),
      displayName: z.string().nullable().optional(),
    }),
  ),
});

const WINDOWS: readonly LeaderboardWindowName[] = ['day', 'week', 'month', 'allTime'];

export type HyperliquidLeaderboardClient = { leaderboard(): Promise<LeaderboardEntry[]> };

export function createHyperliquidLeaderboardClient(o: { url: string; timeoutMs?: number }): HyperliquidLeaderboardClient {
  return {
    async leaderboard() {
      let res: Response;
      try {
        res = await fetch(o.url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(o.timeoutMs ?? 60_000) });
      } catch (e) {
        throw new HyperliquidError(`hyperliquid leaderboard: unreachable (${(e as Error).message})`, 'unreachable', true);
      }
      if (res.status === 429) throw new HyperliquidError('hyperliquid leaderboard: rate limited (429)', 'rate_limited', true);
      if (!res.ok) throw new HyperliquidError(`hyperliquid leaderboard: HTTP ${res.status}`, 'http', res.status >= 500);
      let raw: unknown;
      try {
        raw = await res.json();
      } catch {
        throw new HyperliquidError('hyperliquid leaderboard: the answer is not JSON', 'shape', false);
      }
      const parsed = leaderboardWire.safeParse(raw);
      if (!parsed.success) throw new HyperliquidError(`hyperliquid leaderboard: unexpected shape (${parsed.error.issues[0]?.message})`, 'shape', false);
      return parsed.data.leaderboardRows.map((r) => ({
        wallet: r.ethAddress.toLowerCase(),
        accountValueUsd: r.accountValue,
        windows: Object.fromEntries(
          r.windowPerformances
            .filter(([name]) => (WINDOWS as readonly string[]).includes(name))
            .map(([name, w]) => [name, { pnlUsd: w.pnl, roi: w.roi, volumeUsd: w.vlm }]),
        ),
      }));
    },
  };
}
