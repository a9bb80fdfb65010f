import { createHyperliquidInfoClient } from '../../clients/hyperliquid/hyperliquid-info-client';
import { startSimulatedHyperliquid, type SimulatedHyperliquidOptions } from '../../ingest/perps-simulator/simulated-hyperliquid-server';

/**
 * The perps simulator behind Hyperliquid's wire format on a loopback port, on a clock the test moves (it stands
 * still between moves, so the exchange answers the same to the test and to the code under test), and the worker
 * and API settings that point at it. The weight budget is lifted: the simulator has no rate limit to respect, and a
 * test should not wait on one (the budget has tests of its own).
 */
export async function startPerpsSim(o: Partial<SimulatedHyperliquidOptions> & { startAt?: number } = {}) {
  let clock = o.startAt ?? Date.now();
  const hl = await startSimulatedHyperliquid({ seed: 5, wallets: 400, warmupMs: 2 * 86_400_000, retailTradesPerSecond: 0, tickMs: 50, ...o, now: () => clock });
  const port = new URL(hl.url).port;
  return {
    hl,
    sim: hl.simulator,
    now: () => clock,
    /** Moves the exchange's clock forward (the next tick publishes that stretch's trades). */
    advance(ms: number) {
      clock += ms;
      hl.simulator.advanceTo(clock);
    },
    env: { PERPS_EXCHANGE: 'simulator', PERPS_SIMULATOR_PORT: port } as Record<string, string>,
    client: () => createHyperliquidInfoClient({ baseUrl: hl.url, weightPerMinute: 1_000_000 }),
    close: () => hl.close(),
  };
}
export type PerpsSim = Awaited<ReturnType<typeof startPerpsSim>>;
