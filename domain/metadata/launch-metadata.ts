/**
 * The launch's metadata document (the JSON its on-chain URI points at) and what the enriched mint reads from it.
 * - `metadata_ok`: the document is a JSON object whose `name` and `symbol` are the ones the launch put on chain
 *   (trimmed, case kept) and whose `image` is an http(s) or ipfs URI: the token shows what it says it is.
 * - `has_socials`: the document links at least one http(s) social or website (`twitter`, `telegram`, `website`, at
 *   the top level or under `extensions`, as launchpad front-ends write them).
 * A document that could not be fetched (unreachable, too large, not JSON, a refused address) makes `metadata_ok`
 * false and leaves `has_socials` null: a link that cannot be read is unknown, not absent. Before the fetch has been
 * tried both are null.
 */
export type MetadataFetch = { kind: 'fetched'; doc: unknown } | { kind: 'failed'; outcome: MetadataFailure; reason: string };

/** Why a fetch failed, as the `mint_metadata.outcome` column records it (a fetched document is `ok`). */
export type MetadataFailure =
  'http_error' | 'too_large' | 'timeout' | 'refused' | 'invalid_json' | 'unsupported_uri' | 'connection_failed' | 'too_many_redirects';
export type MetadataOutcome = 'ok' | MetadataFailure;

export const SOCIAL_KEYS = ['twitter', 'telegram', 'website'] as const;

const isHttpUrl = (v: unknown): boolean => typeof v === 'string' && /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v.trim());
const isImageUri = (v: unknown): boolean => isHttpUrl(v) || (typeof v === 'string' && /^ipfs:\/\/\S+$/i.test(v.trim()));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the enriched mint reads from a launch's metadata (`signals.quality`). */
export type MetadataQuality = { has_socials: boolean | null; metadata_ok: boolean | null };
export const METADATA_NOT_FETCHED: MetadataQuality = { has_socials: null, metadata_ok: null };

export function metadataQuality(f: MetadataFetch | null, onChain: { name: string; symbol: string }): MetadataQuality {
  if (f === null) return METADATA_NOT_FETCHED;
  if (f.kind === 'failed') return { has_socials: null, metadata_ok: false };
  const d = f.doc;
  if (!isObject(d)) return { has_socials: false, metadata_ok: false };
  const same = (k: 'name' | 'symbol') => typeof d[k] === 'string' && (d[k] as string).trim() === onChain[k].trim();
  const ext = isObject(d.extensions) ? d.extensions : {};
  return {
    has_socials: SOCIAL_KEYS.some((k) => isHttpUrl(d[k]) || isHttpUrl(ext[k])),
    metadata_ok: same('name') && same('symbol') && isImageUri(d.image),
  };
}

/**
 * The http(s) address a metadata URI is fetched from: http(s) as is, `ipfs://<cid>/<path>` (and `ipfs://ipfs/<cid>`)
 * through the configured gateway. null for any other scheme: not fetched, recorded as failed.
 */
export function metadataFetchUrl(uri: string, ipfsGateway: string): string | null {
  const u = uri.trim();
  if (/^https?:\/\//i.test(u)) return u;
  const m = /^ipfs:\/\/(?:ipfs\/)?(.+)$/i.exec(u);
  return m ? `${ipfsGateway.replace(/\/+$/, '')}/ipfs/${m[1]}` : null;
}
