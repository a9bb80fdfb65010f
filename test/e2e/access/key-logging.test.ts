import { Writable } from 'node:stream';
import { createLogger } from '../../../platform/logger';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, startApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';
import { typedApi } from '../../support/typed-api';

describe('keys are never logged', () => {
  it('request logs (every request at debug) redact Authorization and X-API-Key, for good and bad keys alike', async () => {
    const t = await createTestDatabase();
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const api = await startApi(t.db, { log: createLogger('debug', 'api-test', sink), env: afterBeta() });
    try {
      await writeEmptyLiveSnapshots(t.db, new Date());
      const k = await issueTestKey(t.db, 'free');
      const secret = k.plaintext.split('_').pop()!;
      const forged = `${k.prefix}_${'4'.repeat(44)}`;
      const http = typedApi(api.url);
      const statuses: number[] = [];
      for (const headers of [k.bearer, k.xApiKey, { Authorization: `Bearer ${forged}` }, { 'X-API-Key': forged }]) {
        for (const r of [
          await http.GET('/api/v1/live', { headers }),
          await http.GET('/api/me', { headers }),
          await http.GET('/api/v1/stats', { headers }),
          await http.GET('/api/v1/live', { params: { query: { limit: 999 } }, headers }),
        ]) {
          statuses.push(r.response.status);
        }
      }
      // The good key's answers (403 below its tier), the forged key's 401s; the bad limit is refused before any key check.
      expect(statuses).toEqual([200, 200, 403, 422, 200, 200, 403, 422, 401, 401, 401, 422, 401, 401, 401, 422]);
      const log = lines.join('');
      expect(lines.length).toBeGreaterThanOrEqual(16);
      expect(log).toContain('[redacted]');
      expect(log).not.toContain(secret);
      expect(log).not.toContain('4'.repeat(44));
    } finally {
      await api.close();
      await t.drop();
    }
  });
});
