import { historyIngest } from './history';
import type { IngestAreaParts, IngestContext } from './ingest-area';
import { liveIngest } from './live';
import { mintIngest } from './mint';
import { opsIngest } from './ops';
import { perpsIngest } from './perps';
import { walletsIngest } from './wallets';

/** Every area of the ingest daemon (ingest/<area>/index.ts); a new area adds its own here. */
export const INGEST_AREAS = [mintIngest, liveIngest, walletsIngest, historyIngest, perpsIngest, opsIngest] as const;

/** Every area's parts over one context, grouped by kind in the areas' order. */
export function buildIngestAreas(ctx: IngestContext) {
  const parts: IngestAreaParts[] = INGEST_AREAS.map((a) => a.parts(ctx));
  const facts = parts.flatMap((p) => (p.facts ? [p.facts] : []));
  if (facts.length !== 1) throw new Error(`ingest needs exactly one area providing the facts store, found ${facts.length}`);
  return {
    facts: facts[0]!,
    prepare: async () => {
      for (const p of parts) await p.prepare?.();
    },
    onTradesDurable: () => parts.forEach((p) => p.onTradesDurable?.()),
    onProgress: (feeds: Parameters<NonNullable<IngestAreaParts['onProgress']>>[0]) => parts.forEach((p) => p.onProgress?.(feeds)),
    /** Starts every area's loop; returns one stop that waits for them all. */
    start: () => {
      const stops = parts.flatMap((p) => (p.start ? [p.start()] : []));
      return async () => void (await Promise.all(stops.map((stop) => stop())));
    },
  };
}
