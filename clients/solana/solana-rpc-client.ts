import { z } from 'zod';
import type { TransactionLogs } from './pump/pump-event-decoder';

/**
 * The two Solana JSON-RPC reads the backfill needs, over plain `fetch`. @solana/web3.js's Connection would do,
 * but it validates the whole transaction (message, balances, inner instructions) when only the logs, error,
 * slot and block time matter here, so every schema change of parts we never read would break the backfill;
 * it also brings its own retry loop, which would hide rate limits from our backoff. Shapes are checked with
 * zod at this boundary.
 */
export class SolanaRpcError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: number,
    /** What the server asked for (HTTP Retry-After), when it did. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SolanaRpcError';
  }
}

export type SignatureInfo = { signature: string; slot: number; err: unknown; blockTime: number | null };

export type SolanaRpcClient = {
  /** Newest first, as the node answers; `until` is exclusive. */
  getSignaturesForAddress(address: string, opts: { until?: string; before?: string; limit: number }): Promise<SignatureInfo[]>;
  /** Null when the node does not know the transaction (yet). */
  getTransactionLogs(signature: string): Promise<TransactionLogs | null>;
};

const envelope = z.union([
  z.object({ jsonrpc: z.literal('2.0'), result: z.unknown() }),
  z.object({ jsonrpc: z.literal('2.0'), error: z.object({ code: z.number(), message: z.string() }) }),
]);
const signatures = z.array(z.object({ signature: z.string().min(32), slot: z.number().int(), err: z.unknown(), blockTime: z.number().int().nullish() }));
const transaction = z
  .object({
    slot: z.number().int(),
    blockTime: z.number().int().nullish(),
    meta: z.object({ err: z.unknown(), logMessages: z.array(z.string()).nullish() }).nullable(),
  })
  .nullable();

/** Node-side conditions that pass: node behind, block not yet available, slot not yet confirmed. */
const RETRYABLE_RPC_CODES = new Set([-32004, -32005, -32014, -32016]);

/** A request budget shared by every call of a client (requests per second), slowed down by the node's 429s. */
export type RpcRequestBudget = { acquire(weight: number): Promise<void>; penalize(ms: number): void };

export type SolanaRpcClientOptions = {
  timeoutMs?: number;
  commitment?: 'confirmed' | 'finalized';
  /** Every request waits for one unit of it first; a 429 blocks it for the answer's Retry-After. */
  budget?: RpcRequestBudget;
  /** 429s retried inside the client, after the budget's pause, before the call fails (default 0: the caller retries). */
  rateLimitRetries?: number;
  /** The wait after a 429 that names none (default 1000 ms, doubled per retry). */
  rateLimitBackoffMs?: number;
  /** Sees every HTTP request the client sends (request counting against a daily cap). */
  onRequest?: (method: string) => void;
};

export function createSolanaRpcClient(url: string, opts: SolanaRpcClientOptions = {}): SolanaRpcClient {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const commitment = opts.commitment ?? 'confirmed';
  const rateLimitRetries = opts.rateLimitRetries ?? 0;
  const rateLimitBackoffMs = opts.rateLimitBackoffMs ?? 1000;
  let nextId = 1;

  async function call(method: string, params: unknown[]): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await callOnce(method, params);
      } catch (e) {
        if (!(e instanceof SolanaRpcError) || e.code !== 429 || attempt >= rateLimitRetries) throw e;
        // The budget paused every caller of this client already (penalize); this caller queues behind it.
        if (!opts.budget) await new Promise((r) => setTimeout(r, e.retryAfterMs ?? rateLimitBackoffMs * 2 ** attempt));
      }
    }
  }

  async function callOnce(method: string, params: unknown[]): Promise<unknown> {
    await opts.budget?.acquire(1);
    opts.onRequest?.(method);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new SolanaRpcError(`${method}: RPC unreachable: ${(e as Error).message}`, true);
    }
    if (!res.ok) {
      await res.body?.cancel();
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      if (res.status === 429) opts.budget?.penalize(retryAfterMs ?? rateLimitBackoffMs);
      // A 429 carries its HTTP status as the code, so callers tell a rate limit from an outage.
      throw new SolanaRpcError(`${method}: HTTP ${res.status}`, res.status === 429 || res.status >= 500, res.status === 429 ? 429 : undefined, retryAfterMs);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new SolanaRpcError(`${method}: invalid JSON`, true);
    }
    const parsed = envelope.safeParse(body);
    if (!parsed.success) throw new SolanaRpcError(`${method}: not a JSON-RPC answer`, false);
    if ('error' in parsed.data) {
      const { code, message } = parsed.data.error;
      throw new SolanaRpcError(`${method}: ${code} ${message}`, RETRYABLE_RPC_CODES.has(code), code);
    }
    return parsed.data.result;
  }

  return {
    async getSignaturesForAddress(address, o) {
      const config: Record<string, unknown> = { limit: o.limit, commitment };
      if (o.until) config.until = o.until;
      if (o.before) config.before = o.before;
      const parsed = signatures.safeParse(await call('getSignaturesForAddress', [address, config]));
      if (!parsed.success) throw new SolanaRpcError(`getSignaturesForAddress: unexpected shape: ${parsed.error.issues[0]?.message}`, false);
      return parsed.data.map((s) => ({ signature: s.signature, slot: s.slot, err: s.err ?? null, blockTime: s.blockTime ?? null }));
    },

    async getTransactionLogs(signature) {
      const raw = await call('getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment }]);
      const parsed = transaction.safeParse(raw);
      if (!parsed.success) throw new SolanaRpcError(`getTransaction: unexpected shape: ${parsed.error.issues[0]?.message}`, false);
      const tx = parsed.data;
      if (!tx) return null;
      if (!tx.meta || !tx.meta.logMessages) throw new SolanaRpcError(`getTransaction ${signature}: no log messages (node without log storage?)`, false);
      return {
        signature,
        slot: tx.slot,
        err: tx.meta.err ?? null,
        logs: tx.meta.logMessages,
        blockTime: tx.blockTime ? new Date(tx.blockTime * 1000) : null,
      };
    },
  };
}

/** HTTP Retry-After: delay seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const s = Number(header);
  if (header.trim() !== '' && Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
