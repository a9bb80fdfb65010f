import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { LaunchEvent } from '../../domain/launch/launch-events';
import { loadPumpIdl } from '../../clients/solana/pump/pump-idl';
import { PumpEventDecoder } from '../../clients/solana/pump/pump-event-decoder';
import { parsePumpPortalFrame } from '../../ingest/pumpportal/pumpportal-parser';
import { parseReplayLine } from '../../ingest/replay/replay-format';
import { createMarketSimulator, type MarketSimulatorOptions } from '../../ingest/simulator/market-simulator';

/**
 * The event streams a backtest can run on, each as the production decoders would see it:
 * - `simulator[:seed[:hours]]`: the seeded market simulator (synthetic data, defaults seed 42, 72 h);
 * - `replay:<file>` or any `*.jsonl` path: a replay file (ingest/replay/FORMAT.md);
 * - `captures[:<dir>]`: the recorded feed sessions under ../shared/data, decoded by the production
 *   PumpPortal parser and Anchor event decoder;
 * - `backfill:<from>..<to>`: launchpad history read from the chain into Postgres (scripts/backtest/backfill-run.ts),
 *   the mints created in the range with their stored trades and graduations.
 */
export type DatasetSpec =
  | { kind: 'simulator'; seed: number; hours: number }
  | { kind: 'replay'; file: string }
  | { kind: 'captures'; dir: string }
  | { kind: 'backfill'; range: string; fromMs?: number; toMs?: number };

export type Dataset = {
  spec: DatasetSpec;
  label: string;
  /** First and last event time, for progress (a replay file is read at both ends; null when unreadable). */
  span(): Promise<{ fromMs: number; toMs: number } | null>;
  events(): AsyncIterable<LaunchEvent>;
  /** Lines or frames the decoders refused, filled in while `events()` runs. */
  rejected: { count: number; reasons: Map<string, number> };
};

export const SIMULATOR_START = Date.parse('2026-01-01T00:00:00Z');
export const DEFAULT_SIMULATOR = { seed: 42, hours: 72 };

export function parseDatasetSpec(arg: string, sharedData: string): DatasetSpec {
  const [head, ...rest] = arg.split(':');
  if (head === 'simulator') {
    if (rest.length > 2) throw new Error(`simulator takes at most seed and hours: ${arg}`);
    const seed = rest[0] === undefined || rest[0] === '' ? DEFAULT_SIMULATOR.seed : Number(rest[0]);
    const hours = rest[1] === undefined || rest[1] === '' ? DEFAULT_SIMULATOR.hours : Number(rest[1]);
    if (!Number.isInteger(seed)) throw new Error(`simulator seed must be an integer: ${rest[0]}`);
    if (!(hours > 0 && hours <= 24 * 60)) throw new Error(`simulator hours must be in (0, 1440]: ${rest[1]}`);
    return { kind: 'simulator', seed, hours };
  }
  if (head === 'captures') return { kind: 'captures', dir: rest.length ? rest.join(':') : sharedData };
  if (head === 'replay') {
    if (!rest.length || !rest.join(':')) throw new Error('replay needs a file: replay:<path>');
    return { kind: 'replay', file: rest.join(':') };
  }
  if (head === 'backfill') {
    if (!rest.join(':').includes('..')) throw new Error('backfill needs a range: backfill:<from>..<to> (ISO times or dates)');
    return { kind: 'backfill', range: rest.join(':') };
  }
  if (arg.endsWith('.jsonl')) return { kind: 'replay', file: arg };
  throw new Error(`unknown dataset "${arg}": use simulator[:seed[:hours]], replay:<file.jsonl>, captures[:<dir>] or backfill:<from>..<to>`);
}

export function openDataset(
  spec: DatasetSpec,
  simulator: Partial<MarketSimulatorOptions> = {},
  /** Reads a backfilled range's stored events (the backfill dataset only). */
  stored?: (fromMs: number, toMs: number) => Promise<LaunchEvent[]>,
): Dataset {
  const rejected = { count: 0, reasons: new Map<string, number>() };
  const reject = (reason: string) => {
    rejected.count++;
    rejected.reasons.set(reason, (rejected.reasons.get(reason) ?? 0) + 1);
  };
  switch (spec.kind) {
    case 'simulator': {
      const toMs = SIMULATOR_START + spec.hours * 3_600_000;
      return {
        spec,
        label: `simulator seed ${spec.seed}, ${spec.hours} h (synthetic)`,
        span: async () => ({ fromMs: SIMULATOR_START, toMs }),
        rejected,
        async *events() {
          yield* createMarketSimulator({ ...simulator, seed: spec.seed, startMs: SIMULATOR_START }).events(SIMULATOR_START, toMs);
        },
      };
    }
    case 'replay':
      return {
        spec,
        label: `replay ${spec.file}`,
        span: () => replaySpan(spec.file),
        rejected,
        async *events() {
          const lines = readline.createInterface({ input: fs.createReadStream(spec.file, 'utf8'), crlfDelay: Infinity });
          for await (const text of lines) {
            if (!text.trim()) continue;
            try {
              yield parseReplayLine(text).event;
            } catch (e) {
              reject((e as Error).message);
            }
          }
        },
      };
    case 'backfill': {
      const { fromMs, toMs } = spec;
      if (fromMs === undefined || toMs === undefined || !stored) throw new Error('a backfill dataset is read from Postgres after its range is backfilled');
      return {
        spec,
        label: `chain backfill ${new Date(fromMs).toISOString()} .. ${new Date(toMs).toISOString()}`,
        span: async () => ({ fromMs, toMs }),
        rejected,
        async *events() {
          yield* await stored(fromMs, toMs);
        },
      };
    }
    case 'captures': {
      // Both sessions are small: decoded up front, merged into one stream in time order as ingestion stores them.
      const sessions = [
        { name: 'pumpportal', events: pumpPortalEvents(spec.dir, reject) },
        { name: 'solana-logs', events: solanaLogsEvents(spec.dir, reject) },
      ];
      const all = sessions.flatMap((x) => x.events).sort((a, b) => a.at.getTime() - b.at.getTime());
      const describe = (x: (typeof sessions)[number]) => {
        const first = x.events.reduce((m, e) => Math.min(m, e.at.getTime()), Infinity);
        const last = x.events.reduce((m, e) => Math.max(m, e.at.getTime()), -Infinity);
        return x.events.length ? `${x.name} ${((last - first) / 60_000).toFixed(1)} min from ${new Date(first).toISOString()}` : `${x.name} empty`;
      };
      return {
        spec,
        label: `recorded feed captures in ${spec.dir} (${sessions.map(describe).join('; ')})`,
        span: async () => (all.length ? { fromMs: all[0]!.at.getTime(), toMs: all[all.length - 1]!.at.getTime() } : null),
        rejected,
        async *events() {
          yield* all;
        },
      };
    }
  }
}

/** Times of a replay file's first and last lines (its tail is read backwards, not the whole file). */
async function replaySpan(file: string): Promise<{ fromMs: number; toMs: number } | null> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const { size } = await fd.stat();
    const read = async (from: number, len: number) => {
      const buf = Buffer.alloc(len);
      const { bytesRead } = await fd.read(buf, 0, len, from);
      return buf.subarray(0, bytesRead).toString('utf8');
    };
    const chunk = Math.min(size, 1 << 16);
    const atOf = (lines: string[]) => {
      for (const l of lines) {
        try {
          return parseReplayLine(l).event.at.getTime();
        } catch {
          // A torn or bad line at the edge of the chunk: try the next one.
        }
      }
      return null;
    };
    const fromMs = atOf((await read(0, chunk)).split(/\r?\n/));
    const toMs = atOf((await read(size - chunk, chunk)).split(/\r?\n/).reverse());
    return fromMs !== null && toMs !== null ? { fromMs, toMs } : null;
  } finally {
    await fd.close();
  }
}

type CaptureLine = { t_wall: number; raw: string };

function readCapture(file: string): CaptureLine[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CaptureLine);
}

function pumpPortalEvents(dir: string, reject: (reason: string) => void): LaunchEvent[] {
  const out: LaunchEvent[] = [];
  for (const line of readCapture(path.join(dir, 'captures', 'pumpportal', 'session1.jsonl'))) {
    const r = parsePumpPortalFrame(line.raw, { receivedAt: new Date(line.t_wall * 1000), source: 'pumpportal' });
    if (r.kind === 'events') out.push(...r.events);
    else if (r.kind === 'bad') reject(`pumpportal: ${r.reason}`);
  }
  return out;
}

function solanaLogsEvents(dir: string, reject: (reason: string) => void): LaunchEvent[] {
  const decoder = new PumpEventDecoder(loadPumpIdl(path.join(dir, 'idl', 'pump.json')));
  const out: LaunchEvent[] = [];
  for (const line of readCapture(path.join(dir, 'captures', 'helius', 'logs_subscribe_pumpfun.jsonl'))) {
    const frame = JSON.parse(line.raw) as {
      method?: string;
      params?: { result?: { context?: { slot?: number }; value?: { signature?: string; err?: unknown; logs?: string[] } } };
    };
    if (frame.method !== 'logsNotification') continue;
    const value = frame.params?.result?.value;
    const slot = frame.params?.result?.context?.slot;
    if (!value?.signature || !Array.isArray(value.logs) || typeof slot !== 'number') {
      reject('solana-logs: notification without signature, logs or slot');
      continue;
    }
    // The notification carries no block time: the frame's arrival time stands in, as in the live feed.
    const d = decoder.decodeTransaction(
      { signature: value.signature, slot, err: value.err ?? null, logs: value.logs, blockTime: null },
      { source: 'solana-logs', receivedAt: new Date(line.t_wall * 1000) },
    );
    for (const reason of d.errors) reject(`solana-logs: ${reason}`);
    out.push(...d.events);
  }
  return out;
}
