import { Writable } from 'node:stream';
import { createLogger } from '../../../platform/logger';
import { startApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';
import { typedApi } from '../../support/typed-api';

/** The API at LOG_LEVEL=info with the given access-log settings; returns the lines written for a few requests. */
async function linesAtInfo(env: Record<string, string>): Promise<{ msg: string; level: number; req?: { url: string; headers: Record<string, string> } }[]> {
  const t = await createTestDatabase();
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  const api = await startApi(t.db, { log: createLogger('info', 'api-test', sink), env });
  try {
    const headers = { 'X-API-Key': 'lp_live_secret' };
    // /livez and an unknown route are outside openapi.yaml: raw fetch; the two API calls go through the typed client.
    const statuses = [
      (await fetch(`${api.url}/livez`, { headers })).status,
      (await typedApi(api.url).GET('/api/scope', { headers })).response.status,
      (await typedApi(api.url).GET('/api/v1/live', { params: { query: { limit: 0 } }, headers })).response.status,
      (await fetch(`${api.url}/no/such/route`, { headers })).status,
    ];
    expect(statuses).toEqual([200, 200, 422, 404]);
  } finally {
    await api.close();
    await t.drop();
  }
  return lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
}

describe('access log at info', () => {
  it('writes no line for fast, unsampled requests', async () => {
    expect(await linesAtInfo({ ACCESS_LOG_SAMPLE: '0', ACCESS_LOG_SLOW_MS: '60000' })).toEqual([]);
  });

  it('writes every request over the slow threshold, with its method, URL and redacted headers', async () => {
    const lines = await linesAtInfo({ ACCESS_LOG_SAMPLE: '0', ACCESS_LOG_SLOW_MS: '0' });
    expect(lines.map((l) => l.req?.url)).toEqual(['/livez', '/api/scope', '/api/v1/live?limit=0', '/no/such/route']);
    expect(lines.every((l) => l.req?.headers['x-api-key'] === '[redacted]')).toBe(true);
  });

  it('writes the sampled fraction of the rest (1 = every request)', async () => {
    expect(await linesAtInfo({ ACCESS_LOG_SAMPLE: '1', ACCESS_LOG_SLOW_MS: '60000' })).toHaveLength(4);
  });
});
