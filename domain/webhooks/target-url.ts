import { isBlockedAddress, isIpLiteral } from './blocked-address';

export type TargetPolicy = { requireHttps: boolean; allowPrivateTargets: boolean };

/**
 * Checks a subscription URL's shape when it is registered, so an obvious mistake is a 422 at once. The route also
 * resolves a host name then (clients/webhooks/target-host-check.ts). Neither is the SSRF guard: a name can resolve
 * anywhere later, so the delivery client checks every address again when it connects.
 */
export function checkTargetUrl(text: string, p: TargetPolicy): { ok: true; url: URL } | { ok: false; why: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, why: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !p.requireHttps)) return { ok: false, why: 'the URL must use https' };
  if (url.username || url.password) return { ok: false, why: 'the URL must not carry credentials' };
  if (p.allowPrivateTargets) return { ok: true, url };
  const host = targetHost(url);
  if (isIpLiteral(host)) {
    // A public IPv6 literal has no dot and is as good a target as a public IPv4 one.
    return isBlockedAddress(host) ? { ok: false, why: 'the URL points at a private, loopback, link-local or reserved address' } : { ok: true, url };
  }
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return { ok: false, why: 'the URL must name a public host' };
  return { ok: true, url };
}

/**
 * The host a URL connects to, as a resolver or address parser takes it: IPv6 brackets dropped, and a fully qualified
 * name's trailing dot too (`localhost.` is `localhost`).
 */
export const targetHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
