import { CURVE, type LaunchEvent } from '../../../domain/launch/launch-events';

/** An IDL event decoded from its borsh struct: field values as Anchor decodes them (BN, PublicKey, …). */
export type DecodedPumpEvent = {
  name: string;
  fields: Record<string, unknown>;
  /** Trailing IDL fields the payload did not carry (an older program version). */
  missing: string[];
};

type PerTransaction = 'signature' | 'ordinal' | 'slot' | 'source' | 'at';
type Mapped<E> = E extends LaunchEvent ? Omit<E, PerTransaction> & { at: Date | null } : never;
/** A LaunchEvent without what only the transaction knows; `at` null when the event carries no timestamp. */
export type MappedPumpEvent = Mapped<LaunchEvent>;

/** The all-zero key: what the program writes in an unset pubkey field, and the quote mint of SOL-quoted curves. */
const DEFAULT_KEY = '11111111111111111111111111111111';
const WSOL = 'So11111111111111111111111111111111111111112';

/**
 * Maps the launchpad events the pipeline uses; others (fee, admin, account events) return null. Fields the
 * mapping needs must be present; fields later program versions added get a documented fallback. Throws on a
 * payload that decoded but cannot be a real event (a missing required field, an amount beyond 2^53).
 */
export function mapPumpEvent(ev: DecodedPumpEvent): MappedPumpEvent | null {
  const f = ev.fields;
  switch (ev.name) {
    case 'CreateEvent': {
      if (!solQuoted(f)) return null;
      const user = key(f, 'user');
      const creator = has(f, 'creator') ? key(f, 'creator') : DEFAULT_KEY;
      return {
        kind: 'create',
        mint: key(f, 'mint'),
        name: str(f, 'name'),
        symbol: str(f, 'symbol'),
        uri: str(f, 'uri'),
        bondingCurve: key(f, 'bonding_curve'),
        // Versions before creator fees had no `creator`: the signer was the creator.
        creator: creator === DEFAULT_KEY ? user : creator,
        // Versions before mayhem mode had no flag and no mayhem launches.
        mayhem: has(f, 'is_mayhem_mode') ? bool(f, 'is_mayhem_mode') : false,
        // Versions without reserves in the event launched every curve at the published constants.
        vSolLamports: has(f, 'virtual_sol_reserves') ? num(f, 'virtual_sol_reserves') : CURVE.initialVSolLamports,
        vTokensRaw: has(f, 'virtual_token_reserves') ? num(f, 'virtual_token_reserves') : CURVE.initialVTokensRaw,
        at: has(f, 'timestamp') ? time(f, 'timestamp') : null,
      };
    }
    case 'TradeEvent':
      if (!solQuoted(f)) return null;
      return {
        kind: 'trade',
        mint: key(f, 'mint'),
        trader: key(f, 'user'),
        isBuy: bool(f, 'is_buy'),
        solLamports: num(f, 'sol_amount'),
        tokensRaw: num(f, 'token_amount'),
        vSolLamports: num(f, 'virtual_sol_reserves'),
        vTokensRaw: num(f, 'virtual_token_reserves'),
        at: time(f, 'timestamp'),
      };
    case 'CompleteEvent':
      return { kind: 'complete', mint: key(f, 'mint'), at: has(f, 'timestamp') ? time(f, 'timestamp') : null };
    case 'CompletePumpAmmMigrationEvent':
      return {
        kind: 'migrate',
        mint: key(f, 'mint'),
        pool: has(f, 'pool') ? key(f, 'pool') : null,
        at: has(f, 'timestamp') ? time(f, 'timestamp') : null,
      };
    default:
      return null;
  }
}

/**
 * Curves quoted in another token (the program's `quote_mint`) price in that token, not in lamports: their
 * reserves would poison every SOL-denominated feature, so they stay out until the model knows quotes.
 */
function solQuoted(f: Record<string, unknown>): boolean {
  if (!has(f, 'quote_mint')) return true;
  const q = key(f, 'quote_mint');
  return q === DEFAULT_KEY || q === WSOL;
}

const has = (f: Record<string, unknown>, name: string) => f[name] !== undefined;

function need(f: Record<string, unknown>, name: string): unknown {
  const v = f[name];
  if (v === undefined) throw new Error(`missing field ${name}`);
  return v;
}

function key(f: Record<string, unknown>, name: string): string {
  const v = need(f, name) as { toBase58?: () => string };
  if (typeof v.toBase58 !== 'function') throw new Error(`field ${name} is not a public key`);
  return v.toBase58();
}

function str(f: Record<string, unknown>, name: string): string {
  const v = need(f, name);
  if (typeof v !== 'string') throw new Error(`field ${name} is not a string`);
  return v;
}

function bool(f: Record<string, unknown>, name: string): boolean {
  const v = need(f, name);
  if (typeof v !== 'boolean') throw new Error(`field ${name} is not a bool`);
  return v;
}

/** u64/i64 arrive as BN; amounts of this launchpad stay below 2^53 (supply is 1e15 raw units). */
function num(f: Record<string, unknown>, name: string): number {
  const v = need(f, name) as { toString?: (base?: number) => string };
  const n = typeof v === 'number' ? v : Number(v.toString?.(10));
  if (!Number.isSafeInteger(n)) throw new Error(`field ${name} is not a safe integer`);
  return n;
}

function time(f: Record<string, unknown>, name: string): Date {
  const s = num(f, name);
  // Seconds since the epoch; anything outside 2020…2100 is a mis-decode, not a time.
  if (s < 1_577_836_800 || s > 4_102_444_800) throw new Error(`field ${name} is not a unix time: ${s}`);
  return new Date(s * 1000);
}
