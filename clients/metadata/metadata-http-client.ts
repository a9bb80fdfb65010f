import http from 'node:http';
import https from 'node:https';
import { metadataFetchUrl, type MetadataFailure, type MetadataFetch } from '../../domain/metadata/launch-metadata';
import { isBlockedAddress, isIpLiteral } from '../../domain/webhooks/blocked-address';
import { guardedLookup, systemResolve, type Resolve } from '../webhooks/webhook-http-client';

export type MetadataClientOptions = {
  /**
   * Where `ipfs://` URIs are fetched (a public gateway in production, the local metadata server in tests and the
   * simulated one under `npm start`). The operator chose it, so a request built from an `ipfs://` URI goes there
   * without the address guard (an IPFS node on a private network is a fair production setup); a redirect it answers
   * and any URI that names an http(s) host are guarded.
   */
  ipfsGateway: string;
  /** The whole fetch, redirects included: a slow host never holds a worker slot longer. */
  timeoutMs: number;
  /** A metadata document is a few hundred bytes; past this the body is cut off and the fetch failed. */
  maxBytes: number;
  /** Tests only (config refuses it in production): loopback and private hosts. */
  allowPrivateTargets: boolean;
  /** Outcomes kept per URI (fetched documents and permanent failures; a retryable failure is never cached). */
  cacheEntries: number;
  resolve?: Resolve;
};

/** A fetch outcome; `retryable` says whether trying again later may change it (a timeout, a 5xx, a reset). */
export type MetadataResult = MetadataFetch & { retryable: boolean };

export type MetadataClient = { fetch(uri: string): Promise<MetadataResult>; close(): void };

export const MAX_REDIRECTS = 2;

/**
 * Fetches launch metadata JSON with the webhook client's SSRF guard: every address a name resolves to must be
 * public, checked in the socket's own lookup (so a DNS answer cannot change between check and connect), IP literals
 * checked before the request, and each redirect (gateways redirect to their subdomain form) checked the same way.
 * The URI comes from whoever launched the token, so it is hostile input: bounded in time and size, GET only.
 */
export function createMetadataClient(o: MetadataClientOptions): MetadataClient {
  const lookup = guardedLookup(o.resolve ?? systemResolve, o.allowPrivateTargets);
  const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }) };
  const gatewayAgents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }) };
  const cache = new Map<string, MetadataResult>();
  const fail = (outcome: MetadataFailure, reason: string, retryable: boolean): MetadataResult => ({ kind: 'failed', outcome, reason, retryable });

  function get(url: string, deadline: number, hops: number, toGateway: boolean): Promise<MetadataResult> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return Promise.resolve(fail('unsupported_uri', 'not a valid URL', false));
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return Promise.resolve(fail('unsupported_uri', `unsupported scheme ${u.protocol}`, false));
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (!toGateway && !o.allowPrivateTargets && isIpLiteral(host) && isBlockedAddress(host))
      return Promise.resolve(fail('refused', `refused: ${host} is not a public address`, false));
    const mod = u.protocol === 'https:' ? https : http;
    return new Promise<MetadataResult>((resolve) => {
      let settled = false;
      const settle = (r: MetadataResult | Promise<MetadataResult>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = mod.request(u, {
        method: 'GET',
        agent: (toGateway ? gatewayAgents : agents)[u.protocol as 'http:' | 'https:'],
        ...(toGateway ? {} : { lookup }),
        headers: { Accept: 'application/json', 'User-Agent': 'launchpad-metadata/1' },
      });
      const timer = setTimeout(
        () => {
          settle(fail('timeout', `timeout after ${o.timeoutMs} ms`, true));
          req.destroy();
        },
        Math.max(0, deadline - Date.now()),
      );
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          if (hops >= MAX_REDIRECTS) return settle(fail('too_many_redirects', `more than ${MAX_REDIRECTS} redirects`, false));
          return settle(get(new URL(res.headers.location, u).toString(), deadline, hops + 1, false));
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return settle(fail('http_error', `HTTP ${status}`, status >= 500 || status === 429));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            settle(fail('too_large', `larger than ${o.maxBytes} bytes`, false));
            req.destroy();
          } else chunks.push(c);
        });
        res.on('end', () => {
          try {
            settle({ kind: 'fetched', doc: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown, retryable: false });
          } catch {
            settle(fail('invalid_json', 'not JSON', false));
          }
        });
        res.on('error', () => settle(fail('connection_failed', 'connection reset', true)));
      });
      req.on('error', (e: NodeJS.ErrnoException) =>
        settle(e.code === 'ESSRF' ? fail('refused', e.message, false) : fail('connection_failed', `connection failed: ${e.code ?? e.message}`, true)),
      );
      req.end();
    });
  }

  return {
    async fetch(uri) {
      const hit = cache.get(uri);
      if (hit) return hit;
      const url = metadataFetchUrl(uri, o.ipfsGateway);
      const toGateway = url !== null && !/^https?:\/\//i.test(uri.trim());
      const r = url === null ? fail('unsupported_uri', 'unsupported URI scheme', false) : await get(url, Date.now() + o.timeoutMs, 0, toGateway);
      if (!r.retryable) {
        if (cache.size >= o.cacheEntries) cache.delete(cache.keys().next().value as string);
        cache.set(uri, r);
      }
      return r;
    },
    close() {
      for (const a of [agents, gatewayAgents]) {
        a['http:'].destroy();
        a['https:'].destroy();
      }
    },
  };
}
