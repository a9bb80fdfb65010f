import { z } from 'zod';
import type { CreateEvent, LaunchEvent, MigrateEvent, TradeEvent } from '../../domain/launch/launch-events';

/**
 * Frames of a PumpPortal-style websocket (`wss://pumpportal.fun/api/data`). Amounts are decimals — SOL and whole
 * tokens — and frames carry no slot and no time. Shapes seen (captures/pumpportal/session1.jsonl, PumpPortal docs):
 *   {"message": "..."}                                        acknowledgement / notice
 *   {"txType":"create", signature, mint, traderPublicKey, initialBuy, solAmount, bondingCurveKey,
 *    vTokensInBondingCurve, vSolInBondingCurve, marketCapSol, name, symbol, uri, is_mayhem_mode, pool}
 *   {"txType":"buy"|"sell", signature, mint, traderPublicKey, tokenAmount, solAmount, newTokenBalance,
 *    bondingCurveKey, vTokensInBondingCurve, vSolInBondingCurve, marketCapSol, pool}
 *   {"txType":"migrate", signature, mint, pool}
 * The same socket also carries other launchpads (`pool: "bonk"`) and, after graduation, AMM trades
 * (`pool: "pump-amm"`): neither is a bonding-curve event of this launchpad.
 */
export type PumpPortalParse =
  | { kind: 'events'; events: LaunchEvent[] }
  | { kind: 'notice'; message: string; error: boolean }
  | { kind: 'ignored'; reason: string }
  | { kind: 'bad'; reason: string };

export type PumpPortalParseContext = {
  receivedAt: Date;
  source: string;
  /**
   * Ordinal of the next event of this kind for this mint in this transaction. PumpPortal sends one frame per
   * trade, so two trades of one mint in one transaction arrive as two frames with the same signature; the feed
   * counts them (log order) so their `eventKey`s match the logs feed's. Default: always 0.
   */
  ordinal?: (signature: string, kind: LaunchEvent['kind'], mint: string) => number;
};

const key = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'not a base58 public key');
const signature = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, 'not a base58 signature');
const amount = z.number().finite().nonnegative();
const reserve = z.number().finite().positive();
const CURVE_POOL = 'pump';

const create = z.object({
  txType: z.literal('create'),
  signature,
  mint: key,
  traderPublicKey: key,
  initialBuy: amount,
  solAmount: amount,
  bondingCurveKey: key,
  vTokensInBondingCurve: reserve,
  vSolInBondingCurve: reserve,
  name: z.string(),
  symbol: z.string(),
  uri: z.string(),
  is_mayhem_mode: z.boolean().optional(),
});
const trade = z.object({
  txType: z.enum(['buy', 'sell']),
  signature,
  mint: key,
  traderPublicKey: key,
  tokenAmount: amount,
  solAmount: amount,
  vTokensInBondingCurve: reserve,
  vSolInBondingCurve: reserve,
});
const migrate = z.object({ txType: z.literal('migrate'), signature, mint: key });
const notice = z.union([z.object({ message: z.string() }), z.object({ errors: z.unknown() })]);

const lamports = (sol: number) => safe(Math.round(sol * 1e9), 'SOL amount');
const rawUnits = (tokens: number) => safe(Math.round(tokens * 1e6), 'token amount');

export function parsePumpPortalFrame(text: string, ctx: PumpPortalParseContext): PumpPortalParse {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return { kind: 'bad', reason: 'not JSON' };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return { kind: 'bad', reason: 'not a JSON object' };
  const txType = (msg as { txType?: unknown }).txType;
  if (txType === undefined) {
    const n = notice.safeParse(msg);
    if (!n.success) return { kind: 'bad', reason: 'neither an event nor a notice' };
    return 'message' in n.data
      ? { kind: 'notice', message: n.data.message, error: false }
      : { kind: 'notice', message: JSON.stringify(n.data.errors), error: true };
  }
  // Other launchpads' frames have other fields (a "bonk" create has no bonding-curve key): sort them out first.
  const pool = (msg as { pool?: unknown }).pool;
  if (txType !== 'migrate' && typeof pool === 'string' && pool !== CURVE_POOL) return { kind: 'ignored', reason: `${String(txType)} on pool ${pool}` };
  const base = { slot: null, at: ctx.receivedAt, source: ctx.source };
  const ordinal = ctx.ordinal ?? (() => 0);
  try {
    switch (txType) {
      case 'create': {
        const f = parse(create, msg);
        // The frame's reserves are after the creator's initial buy in the same transaction.
        const vSolAfter = lamports(f.vSolInBondingCurve);
        const vTokensAfter = rawUnits(f.vTokensInBondingCurve);
        const solIn = lamports(f.solAmount);
        const tokensOut = rawUnits(f.initialBuy);
        const vSolBefore = positive(vSolAfter - solIn, 'pre-buy SOL reserve');
        const vTokensBefore = positive(vTokensAfter + tokensOut, 'pre-buy token reserve');
        const created: CreateEvent = {
          ...base,
          kind: 'create',
          signature: f.signature,
          ordinal: ordinal(f.signature, 'create', f.mint),
          mint: f.mint,
          name: f.name,
          symbol: f.symbol,
          uri: f.uri,
          bondingCurve: f.bondingCurveKey,
          creator: f.traderPublicKey,
          // Frames from before mayhem mode had no flag, and there were no mayhem launches then.
          mayhem: f.is_mayhem_mode ?? false,
          vSolLamports: vSolBefore,
          vTokensRaw: vTokensBefore,
        };
        if (tokensOut === 0) return { kind: 'events', events: [created] };
        const initialBuy: TradeEvent = {
          ...base,
          kind: 'trade',
          signature: f.signature,
          ordinal: ordinal(f.signature, 'trade', f.mint),
          mint: f.mint,
          trader: f.traderPublicKey,
          isBuy: true,
          solLamports: solIn,
          tokensRaw: tokensOut,
          vSolLamports: vSolAfter,
          vTokensRaw: vTokensAfter,
        };
        return { kind: 'events', events: [created, initialBuy] };
      }
      case 'buy':
      case 'sell': {
        const f = parse(trade, msg);
        const amounts = {
          solLamports: lamports(f.solAmount),
          tokensRaw: rawUnits(f.tokenAmount),
          vSolLamports: lamports(f.vSolInBondingCurve),
          vTokensRaw: rawUnits(f.vTokensInBondingCurve),
        };
        const t: TradeEvent = {
          ...base,
          ...amounts,
          kind: 'trade',
          signature: f.signature,
          // Last, once the frame is known good: the counter must not advance for a rejected frame.
          ordinal: ordinal(f.signature, 'trade', f.mint),
          mint: f.mint,
          trader: f.traderPublicKey,
          isBuy: f.txType === 'buy',
        };
        return { kind: 'events', events: [t] };
      }
      case 'migrate': {
        const f = parse(migrate, msg);
        // `pool` here names the venue ("pump-amm"), not the pool account the event's `pool` means.
        const m: MigrateEvent = {
          ...base,
          kind: 'migrate',
          signature: f.signature,
          ordinal: ordinal(f.signature, 'migrate', f.mint),
          mint: f.mint,
          pool: null,
        };
        return { kind: 'events', events: [m] };
      }
      default:
        return { kind: 'bad', reason: `unknown txType ${JSON.stringify(txType).slice(0, 40)}` };
    }
  } catch (e) {
    return { kind: 'bad', reason: `${String(txType)}: ${(e as Error).message}` };
  }
}

function parse<T>(schema: z.ZodType<T>, msg: unknown): T {
  const r = schema.safeParse(msg);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${issue?.path.join('.') || 'frame'}: ${issue?.message}`);
  }
  return r.data;
}

function safe(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) throw new Error(`${what} out of range`);
  return n;
}

function positive(n: number, what: string): number {
  if (n <= 0) throw new Error(`${what} is not positive`);
  return n;
}
