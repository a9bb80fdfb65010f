import { isBlockedAddress } from '../../domain/webhooks/blocked-address';
import { systemResolve, type Resolve } from './webhook-http-client';

/** Why a host name may not be a webhook target, or null when it may (as far as registration can tell). */
export type TargetHostCheck = (hostname: string) => Promise<string | null>;

/**
 * Resolves a webhook's host name when it is registered, so a name that points at loopback or a private network (an
 * `/etc/hosts` entry, a DNS name for 127.0.0.1) is a 422 then, not an event retried forever to a URL that can never
 * work. A name that does not resolve now (a typo, a record not published yet, a resolver outage) is accepted: the
 * delivery client resolves and checks again at every connect, which remains the SSRF guard.
 */
export function createTargetHostCheck(o: { resolve?: Resolve; timeoutMs: number }): TargetHostCheck {
  const resolve = o.resolve ?? systemResolve;
  return async (hostname) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), o.timeoutMs)));
    try {
      const all = await Promise.race([resolve(hostname).catch(() => null), late]);
      const bad = all?.find((a) => isBlockedAddress(a.address));
      return bad ? `the URL's host resolves to a private, loopback, link-local or reserved address (${bad.address})` : null;
    } finally {
      clearTimeout(timer);
    }
  };
}
