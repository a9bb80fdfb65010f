import { createMetadataClient, type MetadataClientOptions } from '../../../clients/metadata/metadata-http-client';
import { startMetadataServer } from '../../fakes/metadata-server';

/** The production metadata client against a local server over real HTTP: bounds, retries, cache, SSRF guard. */
describe('metadata client', () => {
  let srv: Awaited<ReturnType<typeof startMetadataServer>>;
  const clients: { close(): void }[] = [];
  const client = (o: Partial<MetadataClientOptions> = {}) => {
    const c = createMetadataClient({ ipfsGateway: srv.url, timeoutMs: 1500, maxBytes: 64 * 1024, allowPrivateTargets: true, cacheEntries: 100, ...o });
    clients.push(c);
    return c;
  };
  const doc = { name: 'Pepe Coin', symbol: 'PEPE', image: 'ipfs://bafyimg', twitter: 'https://x.com/pepe' };

  beforeAll(async () => {
    srv = await startMetadataServer();
    srv.put('bafydoc', doc);
    srv.put('flaky', doc);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await srv.close();
  });

  it('fetches an ipfs URI through the gateway and an http URI as is, and caches each by URI', async () => {
    const c = client();
    expect(await c.fetch('ipfs://bafydoc')).toEqual({ kind: 'fetched', doc, retryable: false });
    expect(await c.fetch(`${srv.url}/ipfs/bafydoc`)).toMatchObject({ kind: 'fetched', doc });
    const before = srv.hits('/ipfs/bafydoc');
    await c.fetch('ipfs://bafydoc');
    expect(srv.hits('/ipfs/bafydoc')).toBe(before);
  });

  it('follows a gateway redirect, but not a redirect loop', async () => {
    const c = client();
    expect(await c.fetch(`${srv.url}/redirect?cid=bafydoc`)).toMatchObject({ kind: 'fetched', doc });
    expect(await c.fetch(`${srv.url}/loop`)).toMatchObject({ kind: 'failed', reason: 'more than 2 redirects', retryable: false });
  });

  it('bounds time and size, and tells a retryable failure from a permanent one', async () => {
    const c = client({ timeoutMs: 300 });
    expect(await c.fetch(`${srv.url}/slow`)).toMatchObject({ kind: 'failed', reason: 'timeout after 300 ms', retryable: true });
    expect(await c.fetch(`${srv.url}/big`)).toMatchObject({ kind: 'failed', reason: 'larger than 65536 bytes', retryable: false });
    expect(await c.fetch(`${srv.url}/html`)).toMatchObject({ kind: 'failed', reason: 'not JSON', retryable: false });
    expect(await c.fetch(`${srv.url}/gone`)).toMatchObject({ kind: 'failed', reason: 'HTTP 404', retryable: false });
    expect(await c.fetch('ar://whatever')).toMatchObject({ kind: 'failed', retryable: false });
  });

  it('does not cache a retryable failure: the next try gets the document', async () => {
    const c = client();
    expect(await c.fetch(`${srv.url}/flaky`)).toMatchObject({ kind: 'failed', reason: 'HTTP 503', retryable: true });
    expect(await c.fetch(`${srv.url}/flaky`)).toMatchObject({ kind: 'fetched', doc });
  });

  it('refuses loopback and private hosts as the webhook client does, by IP literal and by the addresses a name resolves to', async () => {
    const c = client({ allowPrivateTargets: false, resolve: async () => [{ address: '10.0.0.7', family: 4 }] });
    expect(await c.fetch(`${srv.url}/ipfs/bafydoc`)).toMatchObject({
      kind: 'failed',
      retryable: false,
      reason: expect.stringMatching(/^refused: 127\.0\.0\.1/),
    });
    expect(await c.fetch('http://metadata.internal.example/x.json')).toMatchObject({
      kind: 'failed',
      retryable: false,
      reason: expect.stringMatching(/non-public address \(10\.0\.0\.7\)/),
    });
    expect(await c.fetch('http://[::1]/x.json')).toMatchObject({ kind: 'failed', retryable: false });
  });
});
