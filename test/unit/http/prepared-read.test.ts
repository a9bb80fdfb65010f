import { createPreparedRead } from '../../../api/http/prepared-read';
import { GZIP_MIN_BYTES, prepareJson } from '../../../api/http/prepared-body';

describe('prepared read', () => {
  it('builds once per TTL however many requests ask, and serialises the body once per build', async () => {
    let t = 0;
    let builds = 0;
    const read = createPreparedRead(async () => ({ n: ++builds }), { ttlMs: 1000, now: () => t });
    const [a, b, c] = await Promise.all([read.get(), read.get(), read.get()]);
    expect(builds).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(a.bytes.toString()).toBe('{"n":1}');
    t = 999;
    expect(await read.get()).toBe(a);
    expect(read.peek()).toBe(a);
    t = 1000;
    expect(read.peek()).toBeUndefined();
    expect((await read.get()).bytes.toString()).toBe('{"n":2}');
  });

  it('keeps the ETag of a body rebuilt unchanged, and changes it with the bytes', async () => {
    let value = { a: 1 };
    let t = 0;
    const read = createPreparedRead(async () => value, { ttlMs: 10, now: () => t });
    const first = await read.get();
    t = 10;
    const same = await read.get();
    expect(same).not.toBe(first);
    expect(same.etag).toBe(first.etag);
    value = { a: 2 };
    t = 20;
    expect((await read.get()).etag).not.toBe(first.etag);
  });

  it('does not remember a failed build: its waiters get the error, the next request builds again', async () => {
    let fail = true;
    const read = createPreparedRead(
      async () => {
        if (fail) throw new Error('down');
        return { ok: true };
      },
      { ttlMs: 1000 },
    );
    await expect(Promise.all([read.get(), read.get()])).rejects.toThrow('down');
    expect(read.peek()).toBeUndefined();
    fail = false;
    expect((await read.get()).bytes.toString()).toBe('{"ok":true}');
  });

  it('with a TTL of 0 builds for every request', async () => {
    let builds = 0;
    const read = createPreparedRead(async () => ++builds, { ttlMs: 0 });
    await read.get();
    await read.get();
    expect(builds).toBe(2);
    expect(read.peek()).toBeUndefined();
  });

  it('offers gzip only for large bodies, compressed once', async () => {
    expect(prepareJson({ small: true }).gzipped).toBeUndefined();
    const large = prepareJson({ text: 'x'.repeat(GZIP_MIN_BYTES) });
    const gz = large.gzipped!;
    expect(gz()).toBe(gz());
    expect((await gz()).length).toBeLessThan(large.bytes.length);
  });
});
