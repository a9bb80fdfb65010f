import { execFile } from 'node:child_process';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { ledgerActivities } from '../../../activities/ledger';
import { anchorMemo } from '../../../domain/ledger/anchor-memo';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { checkPublishedProof } from '../../../scripts/lib/ledger-proof-check';
import { startMemoNode, type MemoNode } from '../../fakes/solana-memo-chain';
import { useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { typedApi } from '../../support/typed-api';
import { insertPredictionRows } from '../../support/ledger-rows';

/**
 * Anchoring commit roots on Solana through the production memo client, against a local JSON-RPC node that decodes,
 * signature-checks and "lands" the transactions: the memo and signature are stored with the commit, a retry never
 * makes a second anchor, a node that is down only delays it, a dropped transaction is resent and, once its
 * blockhash expired, replaced; and `npm run verify-proof -- … --rpc` checks the anchor on that node.
 */
const H = 3_600_000;
const ROOT = path.join(__dirname, '../../..');
const BASE = utcHourStart(new Date(Date.now() - (100 + Math.floor(Math.random() * 5000)) * H));
const hour = (k: number) => new Date(BASE.getTime() + k * H);
const key = Keypair.generate();
const { t, api } = useApi();
const http = typedApi(() => api.url);
let node: MemoNode;
const commitIds: number[] = [];
const firstIds: number[] = [];

const acts = (env: Record<string, string> = { LEDGER_ANCHOR_SECRET_KEY: bs58.encode(key.secretKey), LEDGER_ANCHOR_RPC_URL: node.url }) =>
  // Short waits: the local node confirms at the next status query.
  ledgerActivities.create(areaContext(t.db, { env }), { confirmWaitMs: 400, pollMs: 50 });
const commits = async () => {
  const r = await http.GET('/api/ledger/commits', { params: { query: { since: 0 } } });
  expect(r.response.status).toBe(200);
  return r.data!.commits;
};

beforeAll(async () => {
  node = await startMemoNode();
  for (let k = 0; k < 4; k++) firstIds.push((await insertPredictionRows(t.db, { hourStart: hour(k), count: 3 + k, tag: `anchor${k}` }))[0]!);
  const a = acts();
  const due = (await a.sealLedgerHours()).tracks.find((x) => x.track === 'grad_prob')!;
  for (const h of due.due) commitIds.push((await a.commitLedgerHour({ track: 'grad_prob', hourStart: h })).commitId);
  expect(commitIds).toHaveLength(4);
});
afterAll(async () => {
  await node.close();
});

describe('anchoring a commit root in a Solana memo', () => {
  it('sends one signed memo naming the root, stores its signature and slot, and serves them with the commit', async () => {
    const a = acts();
    const r = await a.anchorLedgerCommit({ commitId: commitIds[0]! });
    const c = (await commits())[0]!;
    expect(r).toEqual({
      commitId: commitIds[0],
      signature: expect.any(String),
      slot: expect.any(Number),
      memo: anchorMemo({ track: 'grad_prob', hourStart: hour(0), rootHex: c.merkle_root_hex }),
    });
    expect(node.chain.landed()).toEqual([expect.objectContaining({ signature: r.signature, memos: [r.memo], signers: [key.publicKey.toBase58()] })]);
    expect(c.anchor).toEqual({
      status: 'confirmed',
      memo: r.memo,
      signature: r.signature,
      slot: r.slot,
      block_time: expect.any(String),
      signer: key.publicKey.toBase58(),
    });

    // A retried or duplicated anchor run answers the stored anchor and sends nothing.
    expect(await a.anchorLedgerCommit({ commitId: commitIds[0]! })).toEqual(r);
    expect(node.chain.sent()).toHaveLength(1);
    const proof = await http.GET('/api/ledger/proof/{prediction_id}', { params: { path: { prediction_id: firstIds[0]! } } });
    expect(proof.response.status).toBe(200);
    expect(proof.data!.anchor).toMatchObject({ status: 'confirmed', signature: r.signature });
  });

  it('is delayed, never lost, by a node that is down: the commit stands and the next attempt anchors it', async () => {
    const a = acts();
    for (const fault of ['unavailable', 'reset'] as const) {
      node.rpc.setHttpFault(fault);
      await expect(a.anchorLedgerCommit({ commitId: commitIds[1]! })).rejects.toThrow();
    }
    expect((await commits())[1]!.anchor).toMatchObject({ status: 'none', signature: null });
    node.rpc.setHttpFault(null);
    const r = await a.anchorLedgerCommit({ commitId: commitIds[1]! });
    expect((await commits())[1]!.anchor).toMatchObject({ status: 'confirmed', signature: r.signature });
  });

  it('resends a dropped transaction while its blockhash is valid, and signs a new one once it expired', async () => {
    const a = acts();
    const before = node.chain.sent().length;
    node.chain.dropNextSends(1);
    await expect(a.anchorLedgerCommit({ commitId: commitIds[2]! })).rejects.toThrow(/not confirmed yet/);
    expect((await commits())[2]!.anchor).toMatchObject({ status: 'sending', signature: null });
    const resent = await a.anchorLedgerCommit({ commitId: commitIds[2]! });
    const sent = node.chain.sent().slice(before);
    expect(sent.map((s) => [s.signature, s.dropped])).toEqual([
      [resent.signature, true],
      [resent.signature, false],
    ]);

    node.chain.dropNextSends(1);
    await expect(a.anchorLedgerCommit({ commitId: commitIds[3]! })).rejects.toThrow(/not confirmed yet/);
    const dropped = node.chain.sent().at(-1)!.signature;
    node.chain.advance(1000);
    const replaced = await a.anchorLedgerCommit({ commitId: commitIds[3]! });
    expect(replaced.signature).not.toBe(dropped);
    const attempts = await t.db('ledger_anchor_attempts').where({ commit_id: commitIds[3] }).orderBy('id').select('signature', 'state');
    expect(attempts).toEqual([
      { signature: dropped, state: 'expired' },
      { signature: replaced.signature, state: 'confirmed' },
    ]);
    expect(node.chain.landed().filter((l) => l.memos[0] === replaced.memo)).toHaveLength(1);
  });

  it('refuses to run without a key (anchoring off), and the stored anchors are append-only', async () => {
    await expect(acts({}).anchorLedgerCommit({ commitId: commitIds[0]! })).rejects.toThrow(/no ledger anchoring key/);
    await expect(t.db('ledger_anchors').where({ commit_id: commitIds[0] }).update({ signature: 'x' })).rejects.toMatchObject({ code: 'LG002' });
  });
});

describe('npm run verify-proof', () => {
  it('checks a proof against the published commit and its anchor on the node', async () => {
    const ok = await checkPublishedProof({ baseUrl: api.url, predictionId: firstIds[1]!, rpcUrl: node.url });
    expect(ok.lines).toEqual([
      expect.stringMatching(/^OK {3}proof: grad_prob v1 leaf \d+\/4 walks to root/),
      expect.stringMatching(/^OK {3}commit record digest/),
      expect.stringMatching(/^OK {3}anchor: memo in transaction/),
    ]);
    expect(ok.ok).toBe(true);
    // A node that never saw the anchor (another cluster): the anchor check fails.
    const other = await startMemoNode();
    try {
      const r = await checkPublishedProof({ baseUrl: api.url, predictionId: firstIds[1]!, rpcUrl: other.url });
      expect(r).toEqual({ ok: false, lines: [expect.any(String), expect.any(String), expect.stringMatching(/^FAIL anchor transaction \S+ is not served by/)] });
    } finally {
      await other.close();
    }
  });

  it('runs as the npm script, exiting 0 when every check passes and 1 otherwise', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(
          path.join(ROOT, 'node_modules/.bin/tsx'),
          ['scripts/verify-proof.ts', ...args],
          { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
          (e, stdout) => resolve({ code: e ? Number(e.code) : 0, stdout }),
        );
      });
    const ok = await run([api.url, String(firstIds[0]), '--rpc', node.url]);
    expect(ok.stdout).toMatch(/OK {3}anchor: memo in transaction/);
    expect(ok.code).toBe(0);
    const missing = await run([api.url, '987654321']);
    expect(missing.stdout).toMatch(/^FAIL proof of 987654321: HTTP 404/);
    expect(missing.code).toBe(1);
    expect((await run(['not-a-url', '1'])).code).toBe(2);
  });
});
