import { MintTape } from '../../domain/launch/mint-tape';
import type { MintState } from '../mint/mint-states';
import { createLiveStore } from './live-store';
import type { Db } from '../db-handle';

/** Trades read per round trip while catching up. */
const TRADES_PER_READ = 20_000;

/**
 * The live read model's incremental variant: the states of the mints younger than `windowS`, kept in this process's
 * memory and brought up to date by folding only the trades ingested since the last refresh (by trade `seq`). Mints
 * that leave the window are dropped. After a restart it is rebuilt from Postgres, bounded by the window.
 */
export function createIncrementalLiveModel(handle: Db, o: { windowS: number }) {
  const live = createLiveStore(handle);
  const tracked = new Map<string, MintState>();
  let lastSeq = -1;

  async function coldStart(since: Date) {
    const rows = await live.mintsSince(since);
    lastSeq = await live.maxTradeSeq();
    for (const row of rows) tracked.set(row.mint, { row, tape: new MintTape(row), freshness: new Map() });
    for (const t of await live.tradesOf(rows.map((r) => r.mint))) tracked.get(t.mint)?.tape.apply(t);
  }

  return {
    /** Brings every tracked mint up to date; returns the tracked states (the model's own: read, never keep) and the trades folded. */
    async refresh(now: Date): Promise<{ states: MintState[]; tradesApplied: number }> {
      const since = new Date(now.getTime() - o.windowS * 1000);
      let tradesApplied = 0;
      if (lastSeq < 0) await coldStart(since);
      else {
        for (const row of await live.mintsSince(since)) {
          const t = tracked.get(row.mint);
          if (!t) tracked.set(row.mint, { row, tape: new MintTape(row), freshness: new Map() });
          else t.row = row; // picks up graduation
        }
        for (;;) {
          const { trades, lastSeq: next } = await live.tradesAfter(lastSeq, TRADES_PER_READ);
          for (const t of trades) {
            const m = tracked.get(t.mint);
            if (m) {
              m.tape.apply(t);
              tradesApplied++;
            }
          }
          lastSeq = next;
          if (trades.length < TRADES_PER_READ) break;
        }
      }
      for (const [mint, t] of tracked) if (t.row.at.getTime() < since.getTime()) tracked.delete(mint);
      return { states: [...tracked.values()], tradesApplied };
    },
  };
}
export type IncrementalLiveModel = ReturnType<typeof createIncrementalLiveModel>;
