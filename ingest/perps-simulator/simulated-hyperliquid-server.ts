import { startHyperliquidWireServer } from './hyperliquid-wire-server';
import { PerpsSimulator, type PerpsSimulatorOptions } from './perps-simulator';
import { px, simInfoAnswer, simTradeFrame } from './sim-info-answers';
import { createSimDriftBucket, SIM_DRIFT_PREFIX } from './sim-drift-bucket';
import { handleSimLeaderboard, SIM_LEADERBOARD_PATH } from './sim-leaderboard';

/**
 * The embedded default's exchange: a local Hyperliquid on loopback whose `POST /info` and `/ws` answer from the
 * perps simulator, so the production client (clients/hyperliquid) and the observatory's pollers run unchanged
 * against it, as `npm start` runs the launchpad simulator instead of a chain. Production configuration points
 * at https://api.hyperliquid.xyz; this is started only when the configured exchange is `simulator`.
 *
 * A timer advances the simulator to the wall clock every `tickMs`, pushes the trades of that tick on the
 * `trades` channel of their coin and the mids on `allMids` (Hyperliquid pushes mids about once a block). It also
 * serves the stats host's leaderboard (sim-leaderboard.ts) on the same port.
 */
export type SimulatedHyperliquidOptions = Omit<PerpsSimulatorOptions, 'startAt'> & {
  port?: number;
  tickMs?: number;
  now?: () => number;
  /** Also serve a simulated Drift bucket (sim-drift-bucket.ts) on the same port. */
  driftBucket?: { rowsPerDay?: number; traders?: number };
};

export async function startSimulatedHyperliquid(o: SimulatedHyperliquidOptions) {
  const now = o.now ?? Date.now;
  const sim = new PerpsSimulator({ ...o, startAt: now() });
  const drift = o.driftBucket ? createSimDriftBucket({ seed: o.seed, ...o.driftBucket }) : null;
  const wire = await startHyperliquidWireServer({
    port: o.port,
    other: (req, res) => handleSimLeaderboard(sim, now, req, res) || (drift?.handle(req, res) ?? false),
    answer: (body) => {
      // Answer from the state as of this request, not the last tick.
      sim.advanceTo(now());
      return simInfoAnswer(sim, body);
    },
  });
  const publish = () => {
    sim.advanceTo(now());
    const trades = sim.drainTrades();
    if (trades.length) wire.publishTrades(trades.map(simTradeFrame));
    wire.publishMids(Object.fromEntries([...sim.markets.values()].map((m) => [m.spec.name, px(m.markPx)])));
  };
  const timer = setInterval(publish, o.tickMs ?? 1_000);
  return {
    url: wire.url,
    wsUrl: wire.wsUrl,
    /** The simulated Drift bucket's program prefix (DRIFT_DATA_URL), when it is served. */
    driftUrl: drift ? `${wire.url}${SIM_DRIFT_PREFIX.replace(/\/$/, '')}` : null,
    /** The leaderboard as the stats host serves it (PERPS_LEADERBOARD_URL). */
    leaderboardUrl: `${wire.url}${SIM_LEADERBOARD_PATH}`,
    simulator: sim,
    connections: wire.connections,
    subscriptions: wire.subscriptions,
    async close(): Promise<void> {
      clearInterval(timer);
      await wire.close();
    },
  };
}

export type SimulatedHyperliquid = Awaited<ReturnType<typeof startSimulatedHyperliquid>>;
