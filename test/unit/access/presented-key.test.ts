import { randomBytes } from 'node:crypto';
import { readPresentedKey } from '../../../api/access/presented-key';
import { generateApiKey } from '../../../domain/access/api-key-format';

/** Raw header lines as Node keeps them in `req.rawHeaders`: name, value, name, value … */
const raw = (...lines: [string, string][]) => lines.flat();

/** Two keys of our format (lp_live_<id>_<secret>): only such a Bearer value competes with an X-API-Key. */
const [a, b] = [generateApiKey((n) => randomBytes(n)).plaintext, generateApiKey((n) => randomBytes(n)).plaintext];

describe('presented key (from the raw header lines)', () => {
  it('reads Bearer or X-API-Key, in any case of the header name and scheme', () => {
    expect(readPresentedKey(raw(['Host', 'x']))).toEqual({ kind: 'none' });
    expect(readPresentedKey(raw(['Authorization', 'Bearer abc']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readPresentedKey(raw(['authorization', 'BEARER\tabc ']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readPresentedKey(raw(['X-Api-Key', ' abc ']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readPresentedKey(raw(['Authorization', 'Bearer abc'], ['X-API-Key', 'abc']))).toEqual({ kind: 'key', key: 'abc' });
  });

  it('lets the same key repeat in any header', () => {
    expect(readPresentedKey(raw(['Authorization', 'Bearer abc'], ['authorization', 'bearer abc']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readPresentedKey(raw(['X-API-Key', 'abc'], ['X-API-Key', 'abc'], ['Authorization', 'Bearer abc']))).toEqual({ kind: 'key', key: 'abc' });
  });

  it('calls two different keys ambiguous, wherever they are (Node would drop a second Authorization header)', () => {
    for (const lines of [
      raw(['Authorization', 'Bearer a'], ['Authorization', 'Bearer b']),
      raw(['Authorization', `Bearer ${a}`], ['X-API-Key', b]),
      raw(['X-API-Key', 'a'], ['X-API-Key', 'b']),
      raw(['X-API-Key', a], ['Accept', '*/*'], ['authorization', `Bearer ${a}`], ['x-api-key', b]),
      raw(['X-API-Key', a], ['Authorization', `Bearer ${b}`]),
    ]) {
      expect([lines, readPresentedKey(lines)]).toEqual([lines, { kind: 'ambiguous' }]);
    }
  });

  it('ignores an Authorization that is not a Bearer key of our format when X-API-Key carries the key', () => {
    for (const auth of ['Basic dXNlcjpwYXNz', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig', 'Token abc', 'Bearer', 'Bearer a b', `Bearer ${a}x`, 'junk']) {
      const lines = raw(['X-API-Key', a], ['Authorization', auth]);
      expect([auth, readPresentedKey(lines)]).toEqual([auth, { kind: 'key', key: a }]);
    }
    // Without X-API-Key the Authorization header is the only credential: refused as before.
    expect(readPresentedKey(raw(['Authorization', 'Basic dXNlcjpwYXNz'])).kind).toBe('bad');
  });

  it('refuses what can never be one key', () => {
    for (const lines of [
      raw(['Authorization', 'Bearer']),
      raw(['Authorization', 'Bearer a b']),
      raw(['Authorization', 'Token abc']),
      raw(['X-API-Key', 'a, b']),
      raw(['X-API-Key', 'a, a']),
      raw(['X-API-Key', '']),
      raw(['X-API-Key', 'k'.repeat(100)]),
      raw(['Authorization', 'Bearer a'], ['X-API-Key', '']),
      raw(['X-API-Key', a], ['Authorization', `Bearer ${a}`], ['X-API-Key', '']),
    ]) {
      expect([lines, readPresentedKey(lines).kind]).toEqual([lines, 'bad']);
    }
  });
});
