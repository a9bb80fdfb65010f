import { randomBytes } from 'node:crypto';
import { digestsEqual, generateApiKey, hashApiKey, MAX_KEY_LENGTH, parseApiKey } from '../../../domain/access/api-key-format';

const random = (n: number) => new Uint8Array(randomBytes(n));

describe('api key format', () => {
  it('generates lp_live_<id>_<secret> keys whose prefix fits the KeyPrefix schema and parses back', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const k = generateApiKey(random);
      expect(k.plaintext.startsWith(`${k.prefix}_`)).toBe(true);
      expect(k.prefix).toMatch(/^[A-Za-z0-9_-]{4,32}$/);
      expect(k.plaintext.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
      expect(parseApiKey(k.plaintext)).toEqual({ prefix: k.prefix });
      expect(digestsEqual(k.hash, hashApiKey(k.plaintext))).toBe(true);
      seen.add(k.plaintext);
    }
    expect(seen.size).toBe(200);
  });

  it('skips bytes that would bias the id and draws again until it has ten characters', () => {
    // Every other byte is 255 (rejected: only bytes < 232 map evenly onto 58 characters).
    let i = 0;
    const biased = (n: number) => Uint8Array.from({ length: n }, () => (i++ % 2 ? 255 : i % 232));
    expect(generateApiKey(biased).prefix).toMatch(/^lp_live_[1-9A-HJ-NP-Za-km-z]{10}$/);
  });

  it('rejects anything that is not a well-formed key', () => {
    const k = generateApiKey(random);
    for (const bad of [
      '',
      'lp_live_',
      k.prefix,
      `${k.plaintext}x`.repeat(3),
      k.plaintext.replace('lp_live_', 'lp_test_'),
      `${k.prefix}_0OIl${'1'.repeat(40)}`,
      'ключ',
      'x'.repeat(10_000),
    ]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it('compares digests of different lengths as unequal', () => {
    expect(digestsEqual(new Uint8Array(32), new Uint8Array(31))).toBe(false);
    expect(digestsEqual(hashApiKey('a'), hashApiKey('b'))).toBe(false);
  });
});
