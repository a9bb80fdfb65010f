import net from 'node:net';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/**
 * Property-style: whatever arrives where a key belongs (random ASCII, unicode, control bytes, near-misses of a
 * real key, huge values), the answer is a clean 4xx — never a 5xx, never a dropped connection. Requests go out
 * over a raw socket so bytes no HTTP client would send still reach the server.
 */
let port: number;

const { t, api } = useApi({ env: afterBeta() });
beforeAll(async () => {
  port = Number(new URL(api.url).port);
  await writeEmptyLiveSnapshots(t.db, new Date());
});

/** mulberry32: a small seeded PRNG so a failure names a seed that reproduces it. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function rawGet(path: string, headerBytes: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (c) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    // Written, not ended: a half-closed client socket may be dropped before an async answer is sent.
    s.write(Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`), headerBytes, Buffer.from('\r\n')]));
  });
}

describe('malformed keys never cause a 5xx', () => {
  it('random, unicode, control-byte, near-miss and huge keys all answer 4xx', async () => {
    const real = (await issueTestKey(t.db, 'pro')).plaintext;
    for (const seed of [1, 2, 3]) {
      const rnd = prng(seed);
      const int = (n: number) => Math.floor(rnd() * n);
      const gens: (() => Buffer)[] = [
        () => Buffer.from(Array.from({ length: int(120) }, () => String.fromCharCode(33 + int(94))).join('')),
        () => Buffer.from(Array.from({ length: 1 + int(40) }, () => String.fromCodePoint(0xa0 + int(0x2ffff))).join(''), 'utf8'),
        () => Buffer.from(Array.from({ length: 1 + int(60) }, () => int(256))),
        () => {
          const chars = [...real];
          const i = int(chars.length);
          const op = int(4);
          if (op === 0) chars[i] = chars[i] === 'a' ? 'b' : 'a';
          else if (op === 1) chars.splice(i, 1);
          else if (op === 2) chars.splice(i, 0, 'Z');
          else return Buffer.from(real.toLowerCase());
          return Buffer.from(chars.join(''));
        },
        () => Buffer.from('x'.repeat(1000 + int(200_000))),
      ];
      for (let i = 0; i < 60; i++) {
        const value = gens[i % gens.length]!();
        const shape = int(3);
        const name = shape === 0 ? 'Authorization: Bearer ' : shape === 1 ? 'X-API-Key: ' : 'Authorization: ';
        const r = await rawGet('/api/v1/live', Buffer.concat([Buffer.from(name), value, Buffer.from('\r\n')]));
        const label = `seed ${seed} case ${i}: ${name}${value.subarray(0, 40).toString('hex')}…`;
        expect([label, r.status >= 400 && r.status < 500]).toEqual([label, true]);
        if (r.status === 401) expectConforms('get', '/api/v1/live', 401, JSON.parse(r.body));
      }
    }
  });

  it('the real key still works over the same raw path (the harness can tell success apart)', async () => {
    const k = await issueTestKey(t.db, 'pro');
    const r = await rawGet('/api/v1/live', Buffer.from(`X-API-Key: ${k.plaintext}\r\n`));
    expect(r.status).toBe(200);
  });
});
