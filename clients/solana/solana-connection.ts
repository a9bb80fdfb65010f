import { Connection, SolanaJSONRPCError } from '@solana/web3.js';

/**
 * A @solana/web3.js connection at `confirmed` commitment, with a per-request timeout and the library's own retry on
 * HTTP 429 turned off, so Temporal's retry policy (with its backoff and visible attempts) is the only one.
 */
export function createSolanaConnection(url: string, timeoutMs = 10_000): Connection {
  return new Connection(url, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: async (input, init) => {
      try {
        return await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch (e) {
        // web3.js forwards only errors that are `instanceof Error` in its own realm and otherwise never settles
        // the request; a fetch failure raised by another realm (a test sandbox) would hang the call.
        throw new Error(`fetch failed: ${(e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message}`, { cause: e });
      }
    },
  });
}

export class SolanaRpcCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'SolanaRpcCallError';
  }
}

/** One error type for callers, carrying the node's JSON-RPC code when there was one. */
export async function rpcCall<T>(what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    const code = e instanceof SolanaJSONRPCError && typeof e.code === 'number' ? e.code : undefined;
    throw new SolanaRpcCallError(`${what}: ${(e as Error).message}`, code, e);
  }
}
