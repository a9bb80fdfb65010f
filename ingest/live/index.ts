import { createLiveProjectorWaker } from '../../workflows/live/live-projector-starter';
import { defineIngestArea } from '../ingest-area';

/** The live area in ingest: committed trades wake the live projector, so a composite cross follows at the trade's pace. */
export const liveIngest = defineIngestArea({
  name: 'live',
  parts: ({ cfg, log, temporal }) => {
    const waker = createLiveProjectorWaker(temporal, {
      minSpacingMs: cfg.signals.wakeMinSpacingMs,
      onError: (err) => log.warn({ err }, 'waking the live projector failed; its refresh will evaluate'),
    });
    return { onTradesDurable: () => waker.wake(), start: () => () => waker.stop() };
  },
});
