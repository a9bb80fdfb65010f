import type { IncomingHttpHeaders } from 'node:http';
import { MAX_KEY_LENGTH } from '../../domain/access/api-key-format';

export type PresentedKey = { kind: 'none' } | { kind: 'bad'; why: string } | { kind: 'key'; key: string };

const BEARER = /^Bearer[ \t]+([^\s,]+)[ \t]*$/i;

/**
 * The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`. Both may be sent only if they agree. The
 * value is checked for shape later (by the key's own format); here only what can never be a key is refused.
 */
export function readPresentedKey(h: IncomingHttpHeaders): PresentedKey {
  const auth = h.authorization;
  const xKey = h['x-api-key'];
  if (auth === undefined && xKey === undefined) return { kind: 'none' };
  let fromAuth: string | undefined;
  if (auth !== undefined) {
    const m = BEARER.exec(auth);
    if (!m) return { kind: 'bad', why: 'the Authorization header must be `Bearer <key>`' };
    fromAuth = m[1];
  }
  // Node joins repeated X-API-Key headers with ", "; a list is never one key.
  const fromHeader = Array.isArray(xKey) ? xKey.join(', ') : xKey?.trim();
  if (fromHeader !== undefined && (fromHeader === '' || /[\s,]/.test(fromHeader))) return { kind: 'bad', why: 'the X-API-Key header must hold exactly one key' };
  if (fromAuth !== undefined && fromHeader !== undefined && fromAuth !== fromHeader) return { kind: 'bad', why: 'Authorization and X-API-Key carry different keys' };
  const key = (fromAuth ?? fromHeader)!;
  if (key.length > MAX_KEY_LENGTH) return { kind: 'bad', why: 'the API key is not valid (too long)' };
  return { kind: 'key', key };
}
