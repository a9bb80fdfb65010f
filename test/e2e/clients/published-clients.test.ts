import fs from 'node:fs';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { createPaymentIntentStarter } from '../../../workflows/billing/payment-intent-starter';
import type { PaymentTiming } from '../../../workflows/billing/payment-intent-contract';
import { seedSimulatedMarket } from '../../../scripts/lib/seed-market';
import { waitFor } from '../../../scripts/lib/run';
import { randomAddress, startTreasuryNode, type TreasuryNode } from '../../fakes/solana-treasury-ledger';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, call, startApi, type StartedApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { installHolderToken, type HolderToken } from '../../support/holder-token-rpc';
import { installPublishedClients, type CliUser, type PublishedClients } from '../../support/published-clients';
import { seedResolvedCalls } from '../../support/resolved-calls';
import { createTestDatabase } from '../../support/test-db';
import { testWallet } from '../../support/test-wallet';
import { startWorker } from '../../support/worker-harness';

/**
 * Existing clients work unchanged: the published Python SDK (`graduate-oracle` 0.1.0) and CLI (`goracle` 0.3.0),
 * installed from their registries (test/support/published-clients.ts), run their main commands against this API
 * over HTTP: a simulated market, resolved calls for the accuracy page, a worker on the run's Temporal server and a
 * local Solana RPC node serving the treasury and the holder token. Signups are paid or signed for real: the SOL
 * intent by a transfer the node confirms, the holder link by an ed25519 signature (the test plays the browser the
 * CLI opens). Operations whose capability is not live yet must answer exactly their documented 501 through the
 * client; once they are live, the same cases check the client's real answer.
 */
const SOL_TIMING: PaymentTiming = {
  pollIntervalS: 1,
  reminderLeadS: 3 * 86_400,
  maxPollsPerRun: 100,
  reminderRetry: { initialIntervalS: 1, maximumAttempts: 2 },
};
const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, { 'x-capability'?: string }>> };

let clients: PublishedClients;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: StartedApi;
let node: TreasuryNode;
let holder: HolderToken;
let builder: string;
let pro: string;
let trackedMint: string;

beforeAll(async () => {
  // From the registries the first time (seconds), from .cache/published-clients afterwards.
  clients = await installPublishedClients();
  db = await createTestDatabase();
  const holderMint = randomAddress();
  node = await startTreasuryNode(randomAddress(), { mint: holderMint, decimals: 6 });
  holder = installHolderToken(node.rpc, holderMint);
  const env = { TREASURY_ADDRESS: node.treasury, SOLANA_RPC_URL: node.url, HOLDER_TOKEN_MINT: holderMint };
  w = await startWorker(db.db, { env });
  const now = new Date();
  await seedResolvedCalls(db.db, now, { calls: 40, graduated: 32, runwayS: 570 });
  await seedSimulatedMarket(db.db, now.getTime(), 7);
  api = await startApi(db.db, {
    env: { ...afterBeta(), ...env, LIVE_STALE_AFTER_S: '3600' },
    temporal: { client: w.client, taskQueue: w.taskQueue },
    overrides: { billing: { paymentStarter: createPaymentIntentStarter(w.client, w.taskQueue, SOL_TIMING) } },
  });
  builder = (await issueTestKey(db.db, 'builder')).plaintext;
  pro = (await issueTestKey(db.db, 'pro')).plaintext;
  const live = await call(`${api.url}/api/live`);
  trackedMint = live.body.mints[0].mint;
}, 300_000);

afterAll(async () => {
  await api?.close();
  await w?.stop();
  await node?.close();
  await db?.drop();
});

const get = async (path: string, key?: string) => (await call(`${api.url}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} })).body;

/** The operation's capability from openapi.yaml, and whether the running API still answers it 501. */
async function notLiveYet(path: string, template: string, key: string): Promise<string | undefined> {
  const capability = doc.paths[template]?.get?.['x-capability'];
  const r = await call(`${api.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return capability && r.status === 501 ? capability : undefined;
}

type ProbeBody = {
  grad_prob: number | null;
  age_s: number;
  current_mult: number;
  v_sol: number;
  virtual_sol_reserves: number;
  unique_buyers: number;
  bundle_detected?: boolean;
  manufactured_pump?: boolean | null;
};

/**
 * The lines `goracle probe <mint>` prints for a probe body, colour off: its src/commands/probe.js and the
 * formatters of src/lib/format.js (0.3.0). `bucket`, `dex paid` and `fee delegated` read names this body does not
 * carry, so they never print.
 */
function goracleProbeLines(b: ProbeBody): string[] {
  const s = b.age_s;
  const age = s < 60 ? `${Math.round(s)}s` : s < 3600 ? `${Math.round(s / 60)}m` : s < 86400 ? `${Math.round(s / 3600)}h` : `${Math.round(s / 86400)}d`;
  return [
    `  grad_prob:    ${b.grad_prob === null ? '—' : `${(b.grad_prob * 100).toFixed(1)}%`} (age ${age})`,
    `  current mult: ${b.current_mult.toFixed(2)}×`,
    `  vSOL:         ${(b.virtual_sol_reserves / 1e9).toFixed(2)} SOL`,
    `  unique buys:  ${b.unique_buyers.toLocaleString()}`,
    ...(b.bundle_detected ? ['  bundled:      yes'] : []),
    ...(b.manufactured_pump ? ['  manufactured: yes'] : []),
  ];
}

describe('Python SDK graduate-oracle 0.1.0', () => {
  const sdk = (key: string | null, method: string, kwargs?: Record<string, unknown>) => clients.sdk(api.url, key, method, kwargs);

  it('health(): GET /health answers {"ok": true}', async () => {
    expect(await sdk(null, 'health')).toEqual({ ok: { ok: true, status: 'alive' }, version: '0.1.0' });
    const r = await call(`${api.url}/health`);
    expectConforms('get', '/health', r.status, r.body);
  });

  it('live(), probe(), runners(), stats() with a Builder key answer what the API answers', async () => {
    const live = await sdk(builder, 'live', { limit: 60, min_prob: 0.0 });
    expect(live.ok).toEqual(await get('/api/v1/live?limit=60&min_prob=0.0', builder));
    expect((live.ok as { mints: unknown[] }).mints.length).toBeGreaterThan(0);
    expectConforms('get', '/api/v1/live', 200, live.ok);

    // The SDK documents `client.probe(addr)["grad_prob"]`: a flat body, the address only in the path.
    const probe = await sdk(builder, 'probe', { mint: trackedMint });
    expectConforms('get', '/api/v1/probe/{mint}', 200, probe.ok);
    expect(probe.ok).not.toHaveProperty('mint');
    expect(Object.keys(probe.ok as object)).toEqual(expect.arrayContaining(['grad_prob', 'runner_prob_5x_from_now', 'virtual_sol_reserves']));
    expect((probe.ok as ProbeBody).unique_buyers).toBe((await get(`/api/v1/probe/${trackedMint}`, builder)).unique_buyers);

    const runners = await sdk(builder, 'runners', { tier: '5x', min_prob: 0.05, limit: 30 });
    expectConforms('get', '/api/v1/runners', 200, runners.ok);
    expect(runners.ok).toMatchObject({ tier: '5x', min_prob: 0.05 });

    const stats = await sdk(builder, 'stats');
    expectConforms('get', '/api/v1/stats', 200, stats.ok);
    expect(stats.ok).toMatchObject({ mints_tracked_live: expect.any(Number) });
  });

  it('accuracy() returns the page with the headline block', async () => {
    const r = await sdk(null, 'accuracy');
    expectConforms('get', '/api/accuracy', 200, r.ok);
    expect(r.ok).toEqual(await get('/api/accuracy'));
    // The period's base rate stands beside the hit rate (the calls' mints are the fixture's only mints here).
    expect((r.ok as { headline: { last_30d: unknown } }).headline.last_30d).toEqual({
      status: 'ok',
      hit_rate: 32 / 40,
      n_resolved: 40,
      base_rate: 32 / 40,
      base_rate_n_mints: 40,
    });
  });

  it('mint_free_key() is refused with 402, as upstream refused it', async () => {
    const r = await sdk(null, 'mint_free_key', { email: 'trader@example.com' });
    expect(r.error).toMatchObject({ status: 402, body: { error: 'payment_required' } });
  });

  // The wallet capability (issue 14) is being built: until it is live these must be exactly its documented 501.
  it('smart_money_active()', async () => {
    const r = await sdk(builder, 'smart_money_active', { min_smart: 1, limit: 50 });
    const waiting = await notLiveYet('/api/v1/smart_money_active?min_smart=1&limit=50', '/api/v1/smart_money_active', builder);
    if (waiting) {
      expect(r.error).toEqual({ status: 501, body: { error: 'not_implemented', capability: waiting, message: expect.any(String) } });
      return;
    }
    expectConforms('get', '/api/v1/smart_money_active', 200, r.ok);
    expect(r.ok).toMatchObject({ count: expect.any(Number), mints: expect.any(Array) });
  });

  it('wallet(address)', async () => {
    const address = ((await get('/api/live')) as { mints: { creator: string }[] }).mints[0]!.creator;
    const r = await sdk(builder, 'wallet', { address });
    const waiting = await notLiveYet(`/api/v1/wallet/${address}`, '/api/v1/wallet/{address}', builder);
    if (waiting) {
      expect(r.error).toEqual({ status: 501, body: { error: 'not_implemented', capability: waiting, message: expect.any(String) } });
      return;
    }
    expectConforms('get', '/api/v1/wallet/{address}', 200, r.ok);
    expect(r.ok).toMatchObject({ wallet: address });
  });

  it.each(['smart', 'sniper', 'graduate'])('leaderboard(kind=%s): `graduate` is accepted as `service`', async (kind) => {
    const r = await sdk(pro, 'leaderboard', { kind, limit: 50, min_total: 8 });
    const waiting = await notLiveYet(`/api/v1/wallets/leaderboard?kind=${kind}`, '/api/v1/wallets/leaderboard', pro);
    if (waiting) {
      // Not a 422: the alias passed validation and reached the operation.
      expect(r.error).toEqual({ status: 501, body: { error: 'not_implemented', capability: waiting, message: expect.any(String) } });
      return;
    }
    expectConforms('get', '/api/v1/wallets/leaderboard', 200, r.ok);
    if (kind === 'graduate') expect(r.ok).toEqual(await get('/api/v1/wallets/leaderboard?kind=service&limit=50&min_total=8', pro));
  });
});

describe('CLI goracle 0.3.0', () => {
  let payer: CliUser;

  it('signup (SOL): shows the Solana Pay request, and once the node confirms the transfer saves the key and exits 0', async () => {
    payer = await clients.cliUser(api.url);
    const signup = payer.start(['signup', 'builder', '--plan', 'monthly']);
    await waitFor('the intent to be shown', async () => /Memo:\s+lp-\w+/.test(signup.output()), 30_000);
    const memo = /Memo:\s+(lp-\w+)/.exec(signup.output())![1]!;
    const intent = await get(`/api/upgrade/${memo}`);
    expect(signup.output()).toContain(`To wallet: ${node.treasury}`);
    expect(signup.output()).toContain(`Amount:    ${intent.amount_sol} SOL`);
    // The key is saved before payment, and is the one the intent minted.
    expect(payer.config()).toMatchObject({ keyPrefix: intent.key_prefix, tier: 'free', lastIntent: { memo } });

    const signature = node.ledger.pay({ memos: [memo], lamports: intent.amount_lamports });
    const done = await signup.exited;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('✓ Payment confirmed.');
    expect(done.stdout).toContain('Tier:   builder');
    expect(done.stdout).toContain(`Tx:     ${signature}`);
    expect(payer.config()).toMatchObject({ apiKey: expect.stringMatching(/^lp_live_/), keyPrefix: intent.key_prefix, tier: 'builder', lastIntent: null });
    const st = await get(`/api/upgrade/${memo}`);
    expectConforms('get', '/api/upgrade/{memo}', 200, st);
    expect(st).toMatchObject({ status: 'activated', fulfilled: true, tx_signature: signature, signature });
  }, 120_000);

  it('me, live and probe with the key it saved', async () => {
    const key = payer.config().apiKey as string;
    const me = await payer.run(['me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toMatch(/tier: +builder/);
    expect(me.stdout).toMatch(/expires in: (29|30)d/);
    expect(me.stdout).toMatch(/calls today: \d+ \/ 5,000/);
    const meJson = await payer.run(['me', '--json']);
    expect(JSON.parse(meJson.stdout)).toMatchObject({ tier: 'builder', prefix: payer.config().keyPrefix, daily_limit: 5000, expires_at: expect.any(Number) });

    const live = await payer.run(['live', '--once']);
    const body = await get('/api/v1/live', key);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain(`tracked=${body.n_tracked_total}  indexed=${body.n_indexed_curves}`);
    expect(live.stdout).not.toContain('✗');
    expect(live.stdout).toContain(`${((body.mints[0].virtual_sol_reserves as number) / 1e9).toFixed(1)}`);
    const liveJson = await payer.run(['live', '--json']);
    expect(JSON.parse(liveJson.stdout)).toEqual(await get('/api/v1/live', key));

    const probe = await payer.run(['probe', trackedMint, '--json']);
    expect(probe.code).toBe(0);
    const probed = JSON.parse(probe.stdout);
    expectConforms('get', '/api/v1/probe/{mint}', 200, probed);
    // `--json` prints the body as it is: flat, the address only in the path (docs/clients.md).
    expect(probed).not.toHaveProperty('mint');
    expect(Object.keys(probed)).toEqual(expect.arrayContaining(['grad_prob', 'last_logged_grad_prob', 'virtual_sol_reserves', 'current_mult', 'signals']));
    expect(Object.keys(probed.signals.quality)).toEqual(expect.arrayContaining(['has_socials', 'metadata_ok']));
    // The pretty form reads `result.mint || result`: on the flat body it prints the record's values. The body is
    // read before and after the run, so an age or score window passed in between cannot fail the test.
    const before = (await get(`/api/v1/probe/${trackedMint}`, key)) as ProbeBody;
    const pretty = await payer.run(['probe', trackedMint]);
    const after = (await get(`/api/v1/probe/${trackedMint}`, key)) as ProbeBody;
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toContain(trackedMint);
    expect(pretty.stdout).not.toContain('NaN');
    const printed = pretty.stdout.split('\n').filter((l) => /^ {2}[A-Za-z_ ]+:/.test(l));
    expect([goracleProbeLines(before), goracleProbeLines(after)]).toContainEqual(printed);
    expect(before.virtual_sol_reserves / 1e9).toBeCloseTo(before.v_sol, 6);
    const untracked = await payer.run(['probe', randomAddress()]);
    expect([untracked.code, untracked.stderr]).toEqual([1, expect.stringContaining('mint not currently tracked')]);
  }, 60_000);

  it('signup on a deployment without payments prints the server\'s reason, not only "unavailable"', async () => {
    const bare = await startApi(db.db, { env: afterBeta() });
    try {
      const user = await clients.cliUser(bare.url);
      const done = await user.run(['signup', 'builder', '--plan', 'monthly']);
      expect(done.code).not.toBe(0);
      expect(done.stderr).toContain('HTTP 503: plan payments are not configured on this deployment (TREASURY_ADDRESS)');
    } finally {
      await bare.close();
    }
  }, 60_000);

  it('signup --wallet: the holder link the test signs as the browser would; the key is saved with its tier', async () => {
    const user = await clients.cliUser(api.url);
    const wallet = testWallet();
    holder.setBalance(wallet.address, 2_600_000);
    const signup = user.start(['signup', 'builder', '--wallet', wallet.address]);
    await waitFor('the CLI to open the signing page', async () => user.opened().length > 0, 30_000);
    const linkId = new URL(user.opened()[0]!).searchParams.get('wallet_link')!;
    const link = await get(`/api/signup/wallet/${linkId}`);
    expect(link).toMatchObject({ wallet: wallet.address, tier: 'api', resolved_tier: 'builder', threshold_ui: 2_500_000 });
    const signed = await call(`${api.url}/api/signup/wallet/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ link_id: linkId, signature: wallet.sign(link.message) }),
    });
    expect(signed.status).toBe(200);
    const done = await signup.exited;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('✓ Wallet linked.');
    expect(done.stdout).toContain('Tier:    builder (token-held)');
    expect(done.stdout).toContain('Balance: 2,600,000 $GO');
    const saved = user.config();
    expect(saved).toMatchObject({ apiKey: expect.stringMatching(/^lp_live_/), keyPrefix: expect.stringMatching(/^lp_live_/), tier: 'builder' });
    expect(done.stdout).toContain(`Key:     ${saved.apiKey}`);
    const poll = await get(`/api/signup/wallet/${linkId}`);
    expectConforms('get', '/api/signup/wallet/{link_id}', 200, poll);
    expect(poll).toMatchObject({ status: 'fulfilled', key: saved.apiKey, api_key: saved.apiKey, key_expired_for_poll: false, balance_ui: 2_600_000 });

    const me = await user.run(['me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toMatch(/tier: +builder/);
    expect(me.stdout).toContain('expires:    — (token-holder / never)');
  }, 120_000);

  it('signup --wallet with too small a balance: the CLI hears insufficient_balance and exits 3 without a key', async () => {
    const user = await clients.cliUser(api.url);
    const wallet = testWallet();
    holder.setBalance(wallet.address, 1_200_000);
    const signup = user.start(['signup', 'builder', '--wallet', wallet.address]);
    await waitFor('the CLI to open the signing page', async () => user.opened().length > 0, 30_000);
    const linkId = new URL(user.opened()[0]!).searchParams.get('wallet_link')!;
    const link = await get(`/api/signup/wallet/${linkId}`);
    const signed = await call(`${api.url}/api/signup/wallet/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ link_id: linkId, signature: wallet.sign(link.message) }),
    });
    expectConforms('post', '/api/signup/wallet/sign', 200, signed.body);
    expect(signed.body).toMatchObject({ status: 'insufficient_balance', balance_ui: 1_200_000, threshold_ui: 2_500_000, key: null });
    const done = await signup.exited;
    expect(done.code).toBe(3);
    expect(done.stderr).toContain('✗ Insufficient $GO balance to claim builder.');
    expect(done.stderr).toContain('Held:   1,200,000 $GO');
    expect(done.stderr).toContain('Needed: 2,500,000 $GO');
    expect(user.config().apiKey ?? null).toBeNull();
  }, 120_000);

  it('accuracy prints the headline: runway, hit rates and the monthly trajectory', async () => {
    const user = await clients.cliUser(api.url);
    const out = await user.run(['accuracy']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('median runway: 10m');
    expect(out.stdout).toContain('0% of graduations happen within 30s · n=32');
    expect(out.stdout).toContain('hit rate:      80.0%');
    expect(out.stdout).toContain('resolved:      40 calls');
    expect(out.stdout).toMatch(/Lifetime:\n {2}hit rate: 80\.0%\n {2}resolved: 40 calls/);
    expect(out.stdout).toMatch(/Monthly trajectory:\n( {2}\d{4}-\d{2}: \d+\.\d% \(n=\d+\)\n)+/);
    const json = await user.run(['accuracy', '--json']);
    expect(JSON.parse(json.stdout)).toEqual((await get('/api/accuracy')).headline);
  });
});
