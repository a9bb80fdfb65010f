import { Writable } from 'node:stream';
import { createLogger } from '../../../platform/logger';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, call, startApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';

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
      for (const headers of [k.bearer, k.xApiKey, { Authorization: `Bearer ${forged}` }, { 'X-API-Key': forged }]) {
        for (const path of ['/api/v1/live', '/api/me', '/api/v1/stats', '/api/v1/live?limit=999']) await call(api.url + path, { headers });
      }
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
