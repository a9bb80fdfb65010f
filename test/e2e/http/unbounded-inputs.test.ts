import { useApi } from '../../support/api-harness';
import { call } from '../../support/api-harness';

/**
 * Every value the spec allows is accepted: parameters it gives no upper bound answer 200 far above the bounds they
 * once had (the service caps the rows of one answer inside, and says so in openapi.yaml), up to the largest integer
 * a JSON number carries exactly. Inside the beta window, so keyed operations answer without a key.
 */
const { api } = useApi();

const HUGE = Number.MAX_SAFE_INTEGER;
const CASES: [string, number][] = [
  ['/api/v1/wallets/leaderboard?min_total=', 100_001],
  ['/api/v1/composite_predictions?offset=', 1_000_001],
  ['/api/postmortems?limit=', 501],
  ['/api/ledger/commits?limit=', 501],
  ['/api/ledger/commits?since=', 253_402_300_800],
  ['/api/alerts/audit?hours=', 721],
  ['/api/alerts/audit?limit=', 501],
  ['/api/gate_validation?history=', 101],
  ['/api/perps/ledger/commits?limit=', 501],
  ['/api/burn/history?limit=', 501],
];

describe('parameters the spec leaves unbounded above', () => {
  it.each(CASES)('%s above its old bound and at the largest exact integer answers 200', async (prefix, above) => {
    for (const v of [above, HUGE]) {
      const r = await call(`${api.url}${prefix}${v}`);
      expect([prefix, v, r.status]).toEqual([prefix, v, 200]);
    }
  });

  it('min_loss_pct above 1 is valid and selects no trade', async () => {
    const r = await call(`${api.url}/api/postmortems?min_loss_pct=1.5&require_context=false`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ min_loss_pct: 1.5, count: 0 });
  });

  it('the limits the spec does give still hold (composite_ledger limit 1..500)', async () => {
    const r = await call(`${api.url}/api/v1/composite_ledger?limit=501`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'limit']);
  });
});
