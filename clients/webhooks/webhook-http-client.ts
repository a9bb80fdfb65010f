import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isBlockedAddress, isIpLiteral } from '../../domain/webhooks/blocked-address';

export type ResolvedAddress = { address: string; family: number };
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export type WebhookClientOptions = {
  /** Tests only (config refuses it in production): loopback and private targets. */
  allowPrivateTargets: boolean;
  requireHttps: boolean;
  /** The whole attempt: connect, send, status line and headers. */
  timeoutMs: number;
  /** Name resolution; the system resolver unless a test supplies one. */
  resolve?: Resolve;
};

/** One attempt as recorded: the receiver's status (null when there was none) and why it was not a success. */
export type PostResult = { statusCode: number | null; error: string | null; durationMs: number };

export type WebhookHttpClient = { post(url: string, body: string, headers: Record<string, string>): Promise<PostResult>; close(): void };

export const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * The SSRF guard sits in the socket's own name lookup, so the addresses checked are the addresses connected to (a DNS
 * answer that changes between a check and the connect cannot slip through). Every address of the name must be global
 * unicast, or the connect fails. IP literals never reach a lookup, so they are checked before the request.
 */
export function guardedLookup(resolve: Resolve, allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void) => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        const bad = allowPrivate ? undefined : all.find((a) => isBlockedAddress(a.address));
        if (bad) return callback(Object.assign(new Error(`refused: ${hostname} resolves to a non-public address (${bad.address})`), { code: 'ESSRF' }));
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (e: Error) => callback(e),
    );
  }) as LookupFunction;
}

/**
 * Delivery POSTs over node's http/https with keep-alive agents. Redirects are never followed (a 3xx is a failed
 * attempt), so a receiver cannot bounce a delivery to an internal address. Success is decided on the status line:
 * the body is drained in the background and the socket dropped if it is still arriving at the deadline.
 */
export function createWebhookHttpClient(o: WebhookClientOptions): WebhookHttpClient {
  const lookup = guardedLookup(o.resolve ?? systemResolve, o.allowPrivateTargets);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, lookup } as https.AgentOptions),
  };
  return {
    post(url, body, headers) {
      const started = performance.now();
      const done = (statusCode: number | null, error: string | null): PostResult => ({
        statusCode,
        error,
        durationMs: Math.round(performance.now() - started),
      });
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return Promise.resolve(done(null, 'refused: not a valid URL'));
      }
      if (u.protocol !== 'https:' && !(u.protocol === 'http:' && !o.requireHttps)) return Promise.resolve(done(null, 'refused: the URL must use https'));
      const host = u.hostname.replace(/^\[|\]$/g, '');
      if (!o.allowPrivateTargets && isIpLiteral(host) && isBlockedAddress(host)) return Promise.resolve(done(null, `refused: ${host} is not a public address`));
      const mod = u.protocol === 'https:' ? https : http;
      return new Promise<PostResult>((resolve) => {
        let settled = false;
        const settle = (r: PostResult) => {
          if (!settled) resolve(r);
          settled = true;
        };
        const req = mod.request(u, {
          method: 'POST',
          agent: agents[u.protocol as 'http:' | 'https:'],
          lookup,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'launchpad-webhooks/1', ...headers },
        });
        const timer = setTimeout(() => {
          settle(done(null, `timeout after ${o.timeoutMs} ms`));
          req.destroy();
        }, o.timeoutMs);
        req.on('response', (res) => {
          const status = res.statusCode ?? null;
          const error =
            status !== null && status >= 200 && status < 300
              ? null
              : status !== null && status >= 300 && status < 400
                ? `redirect ${status} not followed`
                : `HTTP ${status}`;
          settle(done(status, error));
          res.on('end', () => clearTimeout(timer));
          res.on('error', () => undefined);
          res.resume();
        });
        req.on('error', (e: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          settle(done(null, e.code === 'ESSRF' ? e.message : `connection failed: ${e.code ?? e.message}`));
        });
        req.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
