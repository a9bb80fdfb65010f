import { isBlockedAddress, isIpLiteral } from './blocked-address';

export type TargetPolicy = { requireHttps: boolean; allowPrivateTargets: boolean };

/**
 * Checks a subscription URL when it is registered, so an obvious mistake is a 422 at once. This is not the SSRF guard:
 * a name can resolve anywhere later, so the delivery client checks every address again when it connects.
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIpLiteral(host) && isBlockedAddress(host)) return { ok: false, why: 'the URL points at a private, loopback, link-local or reserved address' };
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return { ok: false, why: 'the URL must name a public host' };
  return { ok: true, url };
}
