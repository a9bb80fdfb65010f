import { echoInput, MAX_ECHO_STRING } from '../../../api/http/safe-input';
import { MalformedNumber } from '../../../api/http/strict-numbers';
import { safeDetail } from '../../../api/http/validation-detail';

describe('what a 422 may echo as input', () => {
  it('echoes ordinary values as they are', () => {
    expect(echoInput(['query', 'limit'], 500)).toBe(500);
    expect(echoInput(['body', 'tier'], 'gold')).toBe('gold');
    expect(echoInput(['body', 'tier'], ['a', 1, null])).toEqual(['a', 1, null]);
    expect(echoInput(['body', 'x'], { a: { b: 1 } })).toEqual({ a: { b: 1 } });
  });

  it.each([
    ['key'],
    ['api_key'],
    ['secret'],
    ['signature'],
    ['signature_b58'],
    ['token'],
    ['x-api-key'],
    ['authorization'],
    ['webhook_secret'],
    ['access_token'],
    ['Password'],
  ])('never echoes the field %s', (name) => {
    expect(echoInput(['body', name], 'short')).toBeUndefined();
    expect(echoInput(['header', name], 'short')).toBeUndefined();
    expect(echoInput(['body', 'outer', name, 0], 'short')).toBeUndefined();
  });

  it('echoes key_prefix, a visible identifier, and other *_id or *_prefix fields', () => {
    expect(echoInput(['body', 'key_prefix'], 'lp_x')).toBe('lp_x');
    expect(echoInput(['body', 'link_id'], 'abc')).toBe('abc');
  });

  it('never echoes a string shaped like an API key, in any field', () => {
    expect(echoInput(['body', 'email'], 'lp_live_abc_def')).toBeUndefined();
    expect(echoInput(['body', 'tier'], { note: 'LP_LIVE_abc' })).toBeUndefined();
  });

  it('leaves out objects that carry a secret-named field at any depth', () => {
    expect(echoInput(['body'], { tier: 'pro', key: 'x' })).toBeUndefined();
    expect(echoInput(['body', 'tier'], [{ a: { token: 1 } }])).toBeUndefined();
  });

  it('cuts long strings to 256 characters and marks the cut', () => {
    const echoed = echoInput(['body', 'tier'], 'x'.repeat(10_000)) as string;
    expect(echoed).toHaveLength(MAX_ECHO_STRING + 1);
    expect(echoed.endsWith('…')).toBe(true);
    expect(echoInput(['body', 'tier'], 'x'.repeat(MAX_ECHO_STRING))).toBe('x'.repeat(MAX_ECHO_STRING));
  });

  it('leaves out large or deep objects without walking them whole', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(echoInput(['body', 'tier'], deep)).toBeUndefined();
    expect(
      echoInput(
        ['body', 'tier'],
        Array.from({ length: 1000 }, (_, i) => i),
      ),
    ).toBeUndefined();
    expect(echoInput(['body', 'tier'], { a: 'y'.repeat(2000) })).toBeUndefined();
  });

  it('echoes a malformed number as the text the client sent', () => {
    expect(echoInput(['query', 'limit'], new MalformedNumber('0x10', 'integer'))).toBe('0x10');
  });

  it('applies to every 422 item leaving the service, and cuts long names and messages', () => {
    const [item] = safeDetail([{ loc: ['query', 'q'.repeat(1000)], msg: 'm'.repeat(1000), type: 'value_error', input: { key: 'lp_live_x' } }]);
    expect(item!.input).toBeUndefined();
    expect(String(item!.loc[1]).length).toBeLessThanOrEqual(129);
    expect(item!.msg.length).toBeLessThanOrEqual(257);
  });
});
