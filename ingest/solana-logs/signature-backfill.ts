import type { Logger } from '../../platform/logger';
import { backoffDelayMs, type BackoffOptions } from '../../platform/net/backoff';
import { SolanaRpcError, type SignatureInfo, type SolanaRpcClient } from '../../clients/solana/solana-rpc-client';

export type BackfillOptions = {
  /** `limit` of each getSignaturesForAddress page (the node caps it at 1000). */
  pageSize: number;
  /** A gap longer than this many transactions is filled only up to it (bounded memory and RPC credits). */
  maxSignatures: number;
  /** Attempts per RPC call when it fails for a reason that passes. */
  maxAttempts: number;
  retry: BackoffOptions;
};

/**
 * The signatures that mention `address` after `until`, oldest first, paging back with `before`. `complete` is
 * false when the gap held more than `maxSignatures`: the oldest part of it is then not listed.
 */
export async function listSignaturesSince(
  rpc: SolanaRpcClient,
  address: string,
  until: string,
  o: BackfillOptions,
  log: Logger,
  stopped: () => boolean,
): Promise<{ signatures: SignatureInfo[]; complete: boolean }> {
  const newestFirst: SignatureInfo[] = [];
  let before: string | undefined;
  while (!stopped()) {
    const limit = Math.min(o.pageSize, o.maxSignatures - newestFirst.length);
    if (limit <= 0) return { signatures: newestFirst.reverse(), complete: false };
    const page = await withRetry(() => rpc.getSignaturesForAddress(address, { until, before, limit }), o, log, stopped);
    newestFirst.push(...page);
    if (page.length < limit) break;
    before = page[page.length - 1]!.signature;
  }
  return { signatures: newestFirst.reverse(), complete: !stopped() };
}

/** Retries what may pass (timeouts, 429, 5xx, node behind) with backoff; anything else fails at once. */
export async function withRetry<T>(fn: () => Promise<T>, o: BackfillOptions, log: Logger, stopped: () => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const retryable = e instanceof SolanaRpcError && e.retryable;
      if (!retryable || attempt + 1 >= o.maxAttempts || stopped()) throw e;
      log.warn({ err: (e as Error).message, attempt }, 'backfill RPC call failed; retrying');
      await new Promise((r) => setTimeout(r, backoffDelayMs(attempt, o.retry)));
    }
  }
}
