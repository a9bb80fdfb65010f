import fs from 'node:fs';
import { once } from 'node:events';
import { z } from 'zod';
import type { LaunchEvent } from '../../domain/launch/launch-events';

/**
 * One line of a replay file (see FORMAT.md): `{"t": <ms since the file's first event>, "event": <LaunchEvent>}`
 * with `event.at` as an ISO-8601 string. `t` is when the event should be delivered, `event.at` when it happened
 * (a recorder writes the receipt time as `t` and keeps the feed's `at`; a simulator writes `t = at - first at`).
 */
export type ReplayLine = { t: number; event: LaunchEvent };

const int = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const base = {
  signature: z.string().min(1),
  ordinal: int,
  slot: int.nullable(),
  at: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
  source: z.string(),
  mint: z.string().min(1),
};
const event = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('create'),
    name: z.string(),
    symbol: z.string(),
    uri: z.string(),
    bondingCurve: z.string(),
    creator: z.string().min(1),
    mayhem: z.boolean(),
    vSolLamports: int,
    vTokensRaw: int,
  }),
  z.object({
    ...base,
    kind: z.literal('trade'),
    trader: z.string().min(1),
    isBuy: z.boolean(),
    solLamports: int,
    tokensRaw: int,
    vSolLamports: int,
    vTokensRaw: int,
  }),
  z.object({ ...base, kind: z.literal('complete') }),
  z.object({ ...base, kind: z.literal('migrate'), pool: z.string().nullable() }),
]);
const line = z.object({ t: z.number().finite().nonnegative(), event });

export function formatReplayLine(t: number, e: LaunchEvent): string {
  return JSON.stringify({ t, event: { ...e, at: e.at.toISOString() } });
}

/** Parses one line; throws with the offending field on anything that is not a valid replay line. */
export function parseReplayLine(text: string): ReplayLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  const r = line.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${issue?.path.join('.') || 'line'}: ${issue?.message}`);
  }
  return r.data;
}

/**
 * Writes events (in `at` order) as a replay file, `t` being each event's offset from the first. Streams, so a
 * simulator can write hours of market without holding them: pass a generator.
 */
export async function writeReplayFile(filePath: string, events: Iterable<LaunchEvent> | AsyncIterable<LaunchEvent>): Promise<number> {
  const out = fs.createWriteStream(filePath, { encoding: 'utf8' });
  let firstMs: number | null = null;
  let lastMs = -Infinity;
  let n = 0;
  try {
    for await (const e of events) {
      const ms = e.at.getTime();
      if (ms < lastMs) throw new Error(`replay events must be in time order: ${e.at.toISOString()} after ${new Date(lastMs).toISOString()}`);
      lastMs = ms;
      firstMs ??= ms;
      if (!out.write(`${formatReplayLine(ms - firstMs, e)}\n`)) await once(out, 'drain');
      n++;
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return n;
}
