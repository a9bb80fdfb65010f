import { CanonicalJsonError, canonicalBytes, canonicalJson, type CanonicalValue } from '../../../domain/digest/canonical-json';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('canonical JSON: the examples published in RFC 8785', () => {
  it('section 3.2.2: sorts members, drops whitespace, rewrites numbers and string escapes', () => {
    const input = JSON.parse(`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`);
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
    // Section 3.2.4: the same, as UTF-8 bytes.
    expect(hex(canonicalBytes(input))).toBe(
      [
        '7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b3333333333333333332e',
        '333333333333332c31652b33302c342e352c302e3030322c31652d32375d2c22737472696e67223a22e282ac245c7530303066',
        '5c6e4127425c225c5c5c5c5c222f227d',
      ].join(''),
    );
  });

  it('section 3.2.3: orders member names by UTF-16 code units, not by code points', () => {
    const input = JSON.parse(`{
      "\\u20ac": "Euro Sign",
      "\\r": "Carriage Return",
      "\\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\\ud83d\\ude00": "Emoji: Grinning Face",
      "\\u0080": "Control",
      "\\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    // The JCS text, with its raw (unescaped) characters spelled as JavaScript escapes here: U+1F600 (as the
    // UTF-16 pair D83D DE00) sorts before U+FB33, though by code point it would come after.
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('appendix B: writes every sample IEEE-754 value as ECMAScript Number::toString does', () => {
    const samples: [string, string][] = [
      ['0000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [ieee, expected] of samples) {
      expect([ieee, canonicalJson(Buffer.from(ieee, 'hex').readDoubleBE(0))]).toEqual([ieee, expected]);
    }
  });

  it('appendix B: NaN and Infinity have no canonical form, and -0 is refused rather than written as 0', () => {
    for (const ieee of ['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000', '8000000000000000']) {
      expect(() => canonicalJson(Buffer.from(ieee, 'hex').readDoubleBE(0))).toThrow(CanonicalJsonError);
    }
  });
});

describe('canonical JSON: strictness beyond JCS', () => {
  it('escapes only what JCS escapes, with lowercase hex', () => {
    expect(canonicalJson('\u0000\u001f\u007f\u2028/<>&é😀\b\t\n\f\r"\\')).toBe('"\\u0000\\u001f\u007f\u2028/<>&é😀\\b\\t\\n\\f\\r\\"\\\\"');
  });

  it('refuses what JSON.stringify would silently rewrite or drop, naming where', () => {
    const refused: [unknown, string][] = [
      [{ a: [1, { b: Number.NaN }] }, '$.a[1].b'],
      [{ x: Infinity }, '$.x'],
      [[-0], '$[0]'],
      [{ s: 'ok\uD800' }, '$.s'],
      [{ ['\uDC00']: 1 }, '${key}'],
      [{ u: undefined }, '$.u'],
      [{ d: new Date(0) }, '$.d'],
      [{ m: new Map() }, '$.m'],
      [{ n: 10n }, '$.n'],
      [{ f: () => 1 }, '$.f'],
    ];
    for (const [value, path] of refused) {
      let error: unknown;
      try {
        canonicalJson(value as CanonicalValue);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CanonicalJsonError);
      expect((error as CanonicalJsonError).path).toBe(path);
    }
  });

  it('refuses cycles and absurd nesting instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic as CanonicalValue)).toThrow(/nested deeper/);
    let deep: CanonicalValue = 1;
    for (let i = 0; i < 33; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/nested deeper/);
  });

  it('accepts objects without a prototype and keeps array order', () => {
    const bare = Object.assign(Object.create(null), { b: [3, 1, 2], a: null }) as CanonicalValue;
    expect(canonicalJson(bare)).toBe('{"a":null,"b":[3,1,2]}');
  });
});
