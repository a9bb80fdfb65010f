import type { CreateEvent, TradeEvent } from '../../domain/launch/launch-events';
import type { LifecycleTiming } from '../../workflows/mint/mint-lifecycle-contract';
import { uniqueId } from './worker-harness';

/** A lifecycle in seconds: scores at 1 s and 2 s (buckets 30 and 60), resolution at `resolveAfterS`, no checkpoints. */
export const quickTiming = (resolveAfterS: number): LifecycleTiming => ({
  scores: [
    { bucket: 30, afterS: 1 },
    { bucket: 60, afterS: 2 },
  ],
  maxLatenessS: 30,
  resolveAfterS,
  checkpointsS: [],
  checkpointRetry: { initialIntervalS: 0.1, maximumAttempts: 1 },
});

/** Base58 strings of the right length for addresses and signatures. */
const b58 = (prefix: string, len: number) => (prefix + '1'.repeat(len)).slice(0, len).replace(/[0OIl]/g, 'x');
export const testAddress = (tag: string) => b58(uniqueId(tag).replace(/[^1-9A-HJ-NP-Za-km-z]/g, 'z'), 44);
export const testSignature = () => b58(uniqueId('sig'), 88);

/** A mint created now on the initial curve, and single buys against that initial curve. */
export function launchNow() {
  const mint = testAddress('mint');
  const at = new Date();
  const create: CreateEvent = {
    kind: 'create',
    signature: testSignature(),
    ordinal: 0,
    slot: 1000,
    at,
    source: 'test',
    mint,
    name: 'Test',
    symbol: 'TST',
    uri: 'https://example.invalid/t.json',
    bondingCurve: testAddress('curve'),
    creator: testAddress('creator'),
    mayhem: false,
    vSolLamports: 30_000_000_000,
    vTokensRaw: 1_073_000_000_000_000,
  };
  const buy = (afterMs: number, sol: number): TradeEvent => {
    const vTok = Math.round((create.vSolLamports * create.vTokensRaw) / (create.vSolLamports + sol));
    return {
      kind: 'trade',
      signature: testSignature(),
      ordinal: 0,
      slot: 1001,
      at: new Date(at.getTime() + afterMs),
      source: 'test',
      mint,
      trader: testAddress('buyer'),
      isBuy: true,
      solLamports: sol,
      tokensRaw: create.vTokensRaw - vTok,
      vSolLamports: create.vSolLamports + sol,
      vTokensRaw: vTok,
    };
  };
  return { mint, create, buy };
}
