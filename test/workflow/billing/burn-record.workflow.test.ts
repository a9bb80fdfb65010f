import { WorkflowFailedError } from '@temporalio/client';
import { BURN_RECORD_WORKFLOW, burnRecordWorkflowId, type BurnRecordInput, type BurnRecordResult } from '../../../workflows/billing/burn-record-contract';
import { NODE_UNHEALTHY, randomAddress, startTreasuryNode, type TreasuryNode } from '../../fakes/solana-treasury-ledger';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker } from '../../support/worker-harness';

const MINT = randomAddress();
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let node: TreasuryNode;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  node = await startTreasuryNode();
  w = await startWorker(t.db, { env: { HOLDER_TOKEN_MINT: MINT, SOLANA_RPC_URL: node.url } });
  api = await startApi(t.db, { env: { TREASURY_ADDRESS: node.treasury, HOLDER_TOKEN_MINT: MINT } });
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await node.close();
  await t.drop();
});

/** A week's open revenue commitment, as plan activations leave one. */
async function openCommitment(periodStart: string): Promise<number> {
  const at = new Date();
  const [row] = await t
    .db('burn_obligations')
    .insert({
      kind: 'revenue_commitment',
      amount_lamports: 200_000_000,
      period_start: periodStart,
      due_at: new Date(`${periodStart}T00:00:00Z`),
      created_at: at,
      updated_at: at,
    })
    .returning('id');
  return Number((row as { id: number }).id);
}

const start = (input: BurnRecordInput) =>
  w.client.workflow.start(BURN_RECORD_WORKFLOW, { workflowId: burnRecordWorkflowId(input.signature), taskQueue: w.taskQueue, args: [input] });

const pendingIds = async (): Promise<number[]> => {
  const r = await call(`${api.url}/api/burn/pending`);
  expectConforms('get', '/api/burn/pending', r.status, r.body);
  return r.body.items.map((i: { id: number }) => i.id);
};

describe('recordBurn workflow: an executed burn, verified on chain, settles what it covers', () => {
  it('records the burn, settles the commitment and shows it in the history; a second run records nothing new', async () => {
    const id = await openCommitment('2026-11-16');
    const sig = node.ledger.burn({ mint: MINT, amountRaw: 7_500_000_000n, decimals: 6, blockTime: 1_795_500_000 });
    const first = (await (await start({ signature: sig, kind: 'revenue_commitment', settles: [id] })).result()) as BurnRecordResult;
    expect(first).toMatchObject({ inserted: true, amountTokens: 7500 });
    expect(await pendingIds()).not.toContain(id);
    const h = await call(`${api.url}/api/burn/history`);
    expectConforms('get', '/api/burn/history', h.status, h.body);
    expect(h.body.burns).toEqual([
      expect.objectContaining({ id: first.id, signature: sig, amount_tokens: 7500, executed_at: new Date(1_795_500_000_000).toISOString() }),
    ]);
    await w.maybeRecordHistory(burnRecordWorkflowId(sig), 'burn-recorded');

    // The same signature again (a workflow id may be reused once the first run closed): the same record.
    const again = (await (await start({ signature: sig, kind: 'revenue_commitment', settles: [id] })).result()) as BurnRecordResult;
    expect(again).toEqual({ id: first.id, inserted: false, amountTokens: 7500 });
    expect(await t.db('executed_burns').where({ signature: sig })).toHaveLength(1);
  });

  it('waits out a node that is down, then records the burn', async () => {
    const id = await openCommitment('2026-11-09');
    const sig = node.ledger.burn({ mint: MINT, amountRaw: 1_000_000n, decimals: 6 });
    node.ledger.setFault(NODE_UNHEALTHY, { method: 'getTransaction' });
    const handle = await start({ signature: sig, kind: 'revenue_commitment', settles: [id] });
    try {
      // At least two failed attempts are visible on the workflow (what an operator sees in the Temporal UI).
      for (let i = 0; ; i++) {
        const pending = (await handle.describe()).raw.pendingActivities?.[0];
        if ((pending?.attempt ?? 0) >= 2) {
          expect(pending?.lastFailure?.message).toMatch(/unhealthy/i);
          break;
        }
        if (i > 100) throw new Error('the activity was not retried');
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      node.ledger.setFault(null);
    }
    expect(await handle.result()).toMatchObject({ inserted: true, amountTokens: 1 });
    expect(await pendingIds()).not.toContain(id);
    await w.maybeRecordHistory(burnRecordWorkflowId(sig), 'burn-node-down');
  });

  it('fails at once, recording nothing, for a burn of another token or obligations that are not open', async () => {
    const other = node.ledger.burn({ mint: randomAddress(), amountRaw: 5_000_000n, decimals: 6 });
    const err = await (await start({ signature: other, kind: 'revenue_commitment', settles: [] })).result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((err as WorkflowFailedError).cause?.cause).toMatchObject({ type: 'BurnNotRecordable', message: expect.stringMatching(/burned no/) });

    const sig = node.ledger.burn({ mint: MINT, amountRaw: 5_000_000n, decimals: 6 });
    const notOpen = await (await start({ signature: sig, kind: 'payment_receipt', settles: [999_999] })).result().catch((e: unknown) => e);
    expect((notOpen as WorkflowFailedError).cause?.cause).toMatchObject({ type: 'ObligationsNotOpen' });
    expect(await t.db('executed_burns').whereIn('signature', [other, sig])).toHaveLength(0);
    await w.maybeRecordHistory(burnRecordWorkflowId(other), 'burn-not-recordable');
  });
});
