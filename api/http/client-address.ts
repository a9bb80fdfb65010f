import type { IncomingMessage } from 'node:http';
import { clientAddress, trustedProxies, type ForwardedHeader } from '../../domain/http/client-address';

/**
 * The client a request counts against for per-client limits: the socket's peer, or the address a configured proxy
 * forwarded (domain/http/client-address.ts). Express's own `req.ip` is not used: its `trust proxy` reads only
 * X-Forwarded-For, and the app leaves it off so nothing trusts a header by default.
 */
export function createClientAddress(o: { trusted: readonly string[]; header: ForwardedHeader }): (req: IncomingMessage) => string | undefined {
  const trusted = trustedProxies(o.trusted);
  return (req) => {
    const h = req.headers[o.header];
    return clientAddress(req.socket.remoteAddress, Array.isArray(h) ? h.join(',') : h, o.header, trusted);
  };
}
