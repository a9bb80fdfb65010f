import type { LaunchEvent } from '../../domain/launch/launch-events';
import type { Logger } from '../../platform/logger';
import { EventBatcher } from './event-batcher';
import type { FeedStatsRecorder } from './feed-stats-recorder';

/**
 * The batcher every websocket feed puts between its socket and the ingest sink: bounded buffer, back-pressure,
 * retries, and a buffer overflow recorded as a gap in the feed's stats (the events in it are dropped).
 */
export function createWebsocketFeedBatcher(
  sink: (events: LaunchEvent[]) => Promise<void>,
  o: { batch?: { maxEvents: number; maxDelayMs: number }; maxBufferedEvents?: number; logger: Logger },
  rec: FeedStatsRecorder,
  onDropped: (n: number) => void,
): EventBatcher {
  let overflowGap: ReturnType<FeedStatsRecorder['openGap']> | null = null;
  return new EventBatcher(
    sink,
    {
      maxBatch: o.batch?.maxEvents ?? 200,
      maxDelayMs: o.batch?.maxDelayMs ?? 250,
      maxBuffered: o.maxBufferedEvents ?? 20_000,
      retry: { baseMs: 200, maxMs: 5_000 },
      drainTimeoutMs: 5_000,
    },
    {
      logger: o.logger,
      delivered: (events) => rec.emitted(events.length),
      overflowStarted: (from) => (overflowGap = rec.openGap(from)),
      overflowEnded: (to, dropped) => {
        if (overflowGap) rec.closeGap(overflowGap, to);
        overflowGap = null;
        onDropped(dropped);
      },
    },
  );
}
