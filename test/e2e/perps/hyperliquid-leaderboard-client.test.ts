import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HyperliquidError } from '../../../clients/hyperliquid/hyperliquid-info-client';
import { createHyperliquidLeaderboardClient } from '../../../clients/hyperliquid/hyperliquid-leaderboard-client';
import { startPerpsSim, type PerpsSim } from '../../support/perps-sim';

/**
 * The leaderboard client over real HTTP: the simulated exchange's stats host (the wire format of
 * `GET /Mainnet/leaderboard`), and a local server answering what the real host may answer instead.
 */
let s: PerpsSim;
let server: http.Server;
let answer: { status: number; body: string } = { status: 200, body: '{}' };
let base = '';

beforeAll(async () => {
  s = await startPerpsSim({ startAt: Date.now() - 3_600_000 });
  server = http.createServer((_req, res) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/Mainnet/leaderboard`;
});
afterAll(async () => {
  await s.close();
  await new Promise((r) => server.close(r));
});

it('reads every row of the leaderboard: lowercase address, account value, and the four windows as numbers', async () => {
  const rows = await createHyperliquidLeaderboardClient({ url: s.hl.leaderboardUrl }).leaderboard();
  expect(rows).toHaveLength(s.sim.wallets.length);
  const w = s.sim.wallets[3]!;
  const r = rows.find((x) => x.wallet === w.address.toLowerCase())!;
  expect(r.accountValueUsd).toBeCloseTo(w.equity, 5);
  expect(Object.keys(r.windows).sort()).toEqual(['allTime', 'day', 'month', 'week']);
  const all = w.fills.reduce((a, f) => a + f.closedPnl - f.fee, 0);
  expect(r.windows.allTime!.pnlUsd).toBeCloseTo(all, 4);
  expect(r.windows.allTime!.volumeUsd).toBeGreaterThanOrEqual(r.windows.month!.volumeUsd);
});

it('keeps the documented row shape, ignores windows it does not know, and takes null display names', async () => {
  answer = {
    status: 200,
    body: JSON.stringify({
      leaderboardRows: [
        {
          ethAddress: '0x162cc7c861ebd0c06b3d72319201150482518185',
          accountValue: '48857952.3308470026',
          windowPerformances: [
            ['day', { pnl: '644054.375913', roi: '0.0133582723', vlm: '3250555746.66' }],
            ['month', { pnl: '-876456.769935', roi: '-0.0158501266', vlm: '48037528566.37' }],
            ['decade', { pnl: '1', roi: '1', vlm: '1' }],
          ],
          prize: 0,
          displayName: null,
        },
      ],
    }),
  };
  expect(await createHyperliquidLeaderboardClient({ url: base }).leaderboard()).toEqual([
    {
      wallet: '0x162cc7c861ebd0c06b3d72319201150482518185',
      accountValueUsd: 48857952.3308470026,
      windows: {
        day: { pnlUsd: 644054.375913, roi: 0.0133582723, volumeUsd: 3250555746.66 },
        month: { pnlUsd: -876456.769935, roi: -0.0158501266, volumeUsd: 48037528566.37 },
      },
    },
  ]);
});

it.each([
  [500, 'oops', 'http', true],
  [429, '', 'rate_limited', true],
  [404, 'not found', 'http', false],
  [200, 'not json', 'shape', false],
  [200, JSON.stringify({ leaderboardRows: [{ ethAddress: 'nope', accountValue: '1', windowPerformances: [] }] }), 'shape', false],
])('an answer %i %s is a %s error, retryable: %s', async (status, body, kind, retryable) => {
  answer = { status, body };
  const e = await createHyperliquidLeaderboardClient({ url: base })
    .leaderboard()
    .catch((x: unknown) => x);
  expect(e).toBeInstanceOf(HyperliquidError);
  expect(e).toMatchObject({ kind, retryable });
});
