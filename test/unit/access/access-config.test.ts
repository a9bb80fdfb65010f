import { loadConfig } from '../../../platform/config';

describe('paid-access configuration', () => {
  it('defaults: keys required after 2026-07-07T23:59:59Z, auth on, spec thresholds', () => {
    const c = loadConfig({});
    expect(c.access.keyRequiredAfter.toISOString()).toBe('2026-07-07T23:59:59.000Z');
    expect(c.access.authEnabled).toBe(true);
    expect(c.access.keyCacheTtlMs).toBe(5000);
    expect(c.access.holder.thresholds).toEqual({ signals: 500_000, api: 2_500_000 });
    expect(c.access.holder.rpcUrl).toBe(c.ingest.solanaRpcUrl);
  });

  it('reads overrides and refuses bad values by name', () => {
    const c = loadConfig({ API_KEY_REQUIRED_AFTER: '2027-01-01T00:00:00+02:00', API_AUTH_ENABLED: 'false', HOLDER_RPC_URL: 'http://127.0.0.1:8899' });
    expect(c.access.keyRequiredAfter.toISOString()).toBe('2026-12-31T22:00:00.000Z');
    expect(c.access.authEnabled).toBe(false);
    expect(c.access.holder.rpcUrl).toBe('http://127.0.0.1:8899');
    expect(() => loadConfig({ API_KEY_REQUIRED_AFTER: 'next tuesday' })).toThrow(/API_KEY_REQUIRED_AFTER/);
    expect(() => loadConfig({ HOLDER_TOKEN_MINT: 'not-base58-0OIl' })).toThrow(/HOLDER_TOKEN_MINT/);
    expect(loadConfig({ NODE_ENV: 'production', INGEST_FEEDS: 'solana-logs' }).access.keyRevealSecret).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'production', INGEST_FEEDS: 'solana-logs', KEY_REVEAL_SECRET: 's'.repeat(32) }).access.keyRevealSecret).toBe('s'.repeat(32));
  });
});
