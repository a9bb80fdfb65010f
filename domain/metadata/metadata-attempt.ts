import { METADATA_NOT_FETCHED, metadataQuality, type MetadataFetch, type MetadataOutcome } from './launch-metadata';

/** One mint's metadata as stored (`mint_metadata`): the last attempt's outcome and what the enriched mint reads. */
export type MetadataRecord = {
  mint: string;
  uri: string;
  fetchedAt: Date;
  outcome: MetadataOutcome;
  reason: string | null;
  hasSocials: boolean | null;
  metadataOk: boolean | null;
  attempts: number;
  /** No further attempt: a document was read, the failure is permanent, or the attempts are spent. */
  final: boolean;
  nextAttemptAt: Date | null;
};

export type RetryPolicy = { maxAttempts: number; firstRetryS: number };

/**
 * The record after attempt number `attempt` (1 for the first). A retryable failure (a timeout, a 5xx, a reset) is
 * tried again after `firstRetryS`, doubling, until `maxAttempts`; until then the mint's fields stay null (not
 * fetched yet), since a host that is slow for a minute says nothing about the token. A document, a permanent
 * failure or the last attempt settles them by the rules of launch-metadata.ts.
 */
export function metadataRecord(
  m: { mint: string; uri: string; name: string; symbol: string },
  result: MetadataFetch & { retryable: boolean },
  attempt: number,
  policy: RetryPolicy,
  now: Date,
): MetadataRecord {
  const final = !result.retryable || attempt >= policy.maxAttempts;
  const q = final ? metadataQuality(result, m) : METADATA_NOT_FETCHED;
  return {
    mint: m.mint,
    uri: m.uri,
    fetchedAt: now,
    outcome: result.kind === 'fetched' ? 'ok' : result.outcome,
    reason: result.kind === 'fetched' ? null : result.reason,
    hasSocials: q.has_socials,
    metadataOk: q.metadata_ok,
    attempts: attempt,
    final,
    nextAttemptAt: final ? null : new Date(now.getTime() + policy.firstRetryS * 1000 * 2 ** (attempt - 1)),
  };
}
