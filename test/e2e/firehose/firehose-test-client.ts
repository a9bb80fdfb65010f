import fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import WebSocket from 'ws';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { createPredictionStore } from '../../../db/mint/prediction-store';
import type { KnexDb } from '../../../db/knex-handle';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
/** Every frame is checked against the machine-readable protocol (`x-firehose.frames` in openapi.yaml). */
// The frames refer to other parts of the document (`#/x-firehose/topic`): the whole document is registered.
ajv.addSchema(YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')), 'openapi.yaml');
const validFrame = ajv.compile({ $ref: 'openapi.yaml#/x-firehose/frames' });

export type Frame = { type: string; seq?: number; kind?: string; data?: any; [k: string]: unknown };

/** A real websocket client of the firehose that keeps every frame and how the connection ended. */
export function connectFirehose(apiUrl: string, o: { query?: Record<string, string>; headers?: Record<string, string>; autoPong?: boolean } = {}) {
  const url = new URL('/api/v1/firehose', apiUrl.replace(/^http/, 'ws'));
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.append(k, v);
  const ws = new WebSocket(url, { headers: o.headers, autoPong: o.autoPong ?? true });
  const frames: Frame[] = [];
  let eventCount = 0;
  let pings = 0;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const invalid: unknown[] = [];
  ws.on('message', (m) => {
    const f = JSON.parse(String(m));
    if (!validFrame(f)) invalid.push({ frame: f, errors: validFrame.errors });
    frames.push(f);
    if (f.type === 'event') eventCount++;
    wake();
  });
  ws.on('ping', () => {
    pings++;
    wake();
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => (resolve({ code, reason: String(reason) }), wake())),
  );

  /** Resolves when `test` holds over what has arrived; fails after `timeoutMs` (long: the shared machine may be very busy). */
  async function until<T>(test: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = test();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`firehose client: timed out waiting for ${what}; frames: ${JSON.stringify(frames.slice(-5))}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
  const events = () => frames.filter((f) => f.type === 'event');
  return {
    ws,
    frames,
    /** Frames that do not match openapi.yaml's `x-firehose.frames`, with ajv's errors. */
    invalid,
    events,
    closed,
    pings: () => pings,
    until,
    hello: () => until(() => frames.find((f) => f.type === 'hello'), 'hello'),
    // Counted as they arrive: filtering every frame at every message would be quadratic in a long stream.
    eventsUntil: (n: number, timeoutMs?: number) => until(() => eventCount >= n && events(), `${n} events`, timeoutMs),
    close: async () => {
      ws.close();
      await closed;
    },
  };
}
export type FirehoseTestClient = ReturnType<typeof connectFirehose>;

let n = 0;

/** A score written as the mint lifecycle's scoring activity writes it. */
export async function insertScore(db: KnexDb, o: { mint?: string; gradProb?: number; ageBucket?: number } = {}) {
  const now = new Date();
  const mint = o.mint ?? `FhMint${Date.now().toString(36)}${(n++).toString(36)}pump`;
  await createPredictionStore(db).insertOnce({
    mint,
    ageBucket: o.ageBucket ?? 30,
    asOf: now,
    predictedAt: now,
    gradProb: o.gradProb ?? 0.42,
    rawProb: 0.4,
    modelVersion: 'knn-v1-test',
    features: { n_trades: 12 },
    calibration: { n: 10 },
    priceSol: 3e-8,
    rugProb: 0.1,
    runnerOdds: { '2x': 0.3 },
    survivalProb: null,
    modelVersions: { grad_prob: 'knn-v1-test' },
    rugFeatures: {},
    context: {},
  });
  return mint;
}
