import { MAX_KEY_LENGTH, parseApiKey } from '../../domain/access/api-key-format';

export type PresentedKey = { kind: 'none' } | { kind: 'bad'; why: string } | { kind: 'ambiguous' } | { kind: 'key'; key: string };

const BEARER = /^Bearer[ \t]+([^\s,]+)[ \t]*$/i;

/**
 * The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`, read from the raw header lines: Node keeps only
 * the first of repeated `Authorization` headers and joins repeated `X-API-Key` ones, so a second key would otherwise
 * pass unseen or look like a malformed one. Every line must hold exactly one key; several lines may be sent only if
 * they all carry the same key (two different keys are `ambiguous`: which one pays is not the server's guess). The
 * value is checked for shape later (by the key's own format); here only what can never be a key is refused.
 *
 * When `X-API-Key` carries the key, an `Authorization` value that is not a Bearer key of our format (a proxy's Basic
 * auth, a token meant for another service) is not addressed to this API and is ignored; without `X-API-Key` it is
 * the only credential, and is refused as before.
 */
export function readPresentedKey(rawHeaders: readonly string[]): PresentedKey {
  const keys = new Set<string>();
  const authorizations: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = rawHeaders[i + 1]!;
    if (name === 'authorization') {
      authorizations.push(value);
    } else if (name === 'x-api-key') {
      const key = value.trim();
      if (key === '' || /[\s,]/.test(key)) return { kind: 'bad', why: 'the X-API-Key header must hold exactly one key' };
      if (key.length > MAX_KEY_LENGTH) return { kind: 'bad', why: 'the API key is not valid (too long)' };
      keys.add(key);
    }
  }
  const withXApiKey = keys.size > 0;
  for (const value of authorizations) {
    const m = BEARER.exec(value);
    const key = m?.[1];
    if (withXApiKey && (key === undefined || !parseApiKey(key))) continue;
    if (key === undefined) return { kind: 'bad', why: 'the Authorization header must be `Bearer <key>`' };
    if (key.length > MAX_KEY_LENGTH) return { kind: 'bad', why: 'the API key is not valid (too long)' };
    keys.add(key);
  }
  if (keys.size === 0) return { kind: 'none' };
  if (keys.size > 1) return { kind: 'ambiguous' };
  return { kind: 'key', key: keys.values().next().value! };
}
