import { MAX_JSON_DEPTH, refuseDeepJson } from '../../../api/http/body-errors';
import { allowHeader } from '../../../api/http/http-methods';

const depth = (s: string) => () => refuseDeepJson(undefined, undefined, Buffer.from(s));

describe('JSON nesting limit', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    expect(depth('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).not.toThrow();
    expect(depth('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toThrow(expect.objectContaining({ type: 'entity.too.deep' }));
    expect(depth('{"a":'.repeat(5000) + '1' + '}'.repeat(5000))).toThrow();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(depth(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[[', c: '"{{{{' }))).not.toThrow();
  });

  it('measures depth, not the number of sibling containers', () => {
    expect(depth(JSON.stringify(Array.from({ length: 1000 }, () => [[{}]])))).not.toThrow();
  });
});

describe('Allow', () => {
  it('is upper case, with HEAD beside GET and OPTIONS always', () => {
    expect(allowHeader('get')).toBe('GET, HEAD, OPTIONS');
    expect(allowHeader('post')).toBe('POST, OPTIONS');
    expect(allowHeader('get, delete')).toBe('GET, HEAD, DELETE, OPTIONS');
    expect(allowHeader(undefined)).toBe('OPTIONS');
  });
});
