import type { MintState } from '../../db/mint/mint-states';
import type { EnrichedMint } from '../../domain/live/enriched-mint';
import type { SmartMoney } from '../../domain/live/mint-smart-money';

/** One tracked mint at a tick: its state folded from its trades, its enriched record, and its smart money. */
export type LiveMint = { state: MintState; mint: EnrichedMint; smartMoney: SmartMoney };

/**
 * What another area runs on the live projector's tick, over the states the projector already holds (so no area
 * folds trades or enriches mints a second time). Consumers run in registration order after the live lists are
 * written, so a failing consumer never holds back the list; a failure fails the tick, which Temporal retries, and
 * every consumer's writes are idempotent.
 */
export type LiveConsumer = {
  /**
   * At every refresh, over every tracked mint (hidden ones included) and the list as published (best first, at
   * most the snapshot's length). What it returns is merged into the refresh's result, so into the projector's
   * history, where operators and benches read it.
   */
  onRefresh?(mints: readonly LiveMint[], now: Date, listed: readonly EnrichedMint[]): Promise<object | void>;
  /**
   * Between refreshes, when ingest wakes the projector: over the tracked mints this consumer `wants` whose tape
   * moved since it last saw them (at a refresh or a wake). Only those are enriched, so a wake costs a few mints'
   * reads. What it returns is merged into the wake's result.
   */
  onTrades?: {
    wants(state: MintState, now: Date): boolean;
    run(mints: readonly LiveMint[], now: Date): Promise<object>;
  };
};

/** The consumers one worker's live projector runs, registered by their areas (activities/<area>/index.ts). */
export type LiveConsumers = {
  /** Registers (or replaces: an area built again over the same context registers again) the area's consumer. */
  register(area: string, consumer: LiveConsumer): void;
  all(): readonly (LiveConsumer & { area: string })[];
};

export function createLiveConsumers(): LiveConsumers {
  const byArea = new Map<string, LiveConsumer>();
  return {
    register: (area, consumer) => void byArea.set(area, consumer),
    all: () => [...byArea].map(([area, c]) => ({ ...c, area })),
  };
}
