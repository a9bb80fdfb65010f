import { readPresentedKey } from '../../../api/access/presented-key';

/** Raw header lines as Node keeps them in `req.rawHeaders`: name, value, name, value … */
const raw = (...lines: [string, string][]) => lines.flat();

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
      raw(['Authorization', 'Bearer a'], ['X-API-Key', 'b']),
      raw(['X-API-Key', 'a'], ['X-API-Key', 'b']),
      raw(['X-API-Key', 'a'], ['Accept', '*/*'], ['authorization', 'Bearer a'], ['x-api-key', 'b']),
    ]) {
      expect([lines, readPresentedKey(lines)]).toEqual([lines, { kind: 'ambiguous' }]);
    }
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
    ]) {
      expect([lines, readPresentedKey(lines).kind]).toEqual([lines, 'bad']);
    }
  });
});
