import type { LaunchEvent } from '../domain/launch/launch-events';

/**
 * One interface for every source of launchpad events: Solana RPC `logsSubscribe`, a PumpPortal-style
 * websocket, a replay of recorded JSONL, or the simulator. Several run at once; ingestion de-duplicates.
 */
export type FeedStats = {
  name: string;
  connected: boolean;
  framesReceived: number;
  eventsEmitted: number;
  /** Frames that could not be parsed or decoded (counted and logged, never fatal). */
  badFrames: number;
  reconnects: number;
  /** Periods during which the feed was disconnected: events in them may be missing from this feed. */
  gaps: { from: Date; to: Date | null }[];
  lastEventAt: Date | null;
};

export interface LaunchFeed {
  readonly name: string;
  /**
   * Starts delivering events to `sink`. The sink resolves once the batch is durable; a feed must not deliver
   * the next batch before the previous one resolved (back-pressure).
   */
  start(sink: (events: LaunchEvent[]) => Promise<void>): void;
  /** Mints whose trades this feed should follow (PumpPortal meters `subscribeTokenTrade` per mint). */
  track?(mints: string[]): void;
  untrack?(mints: string[]): void;
  stop(): Promise<void>;
  stats(): FeedStats;
}
