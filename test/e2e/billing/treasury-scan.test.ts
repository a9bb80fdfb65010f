import { createTreasuryScanner } from '../../../clients/solana/treasury-scanner';
import { treasuryTokenAccounts } from '../../../clients/solana/token-accounts';
import { createTreasuryRpc } from '../../../clients/solana/treasury-rpc-client';
import { createTreasuryStore } from '../../../db/billing/treasury-store';
import { memoFromRandomBytes } from '../../../domain/billing/payment-memo';
import { NODE_UNHEALTHY, randomAddress, startTreasuryNode, type TreasuryNode } from '../../fakes/solana-treasury-ledger';
import { createTestDatabase } from '../../support/test-db';

const TREASURY = randomAddress();
const MINT = randomAddress();
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let node: TreasuryNode;

beforeAll(async () => {
  t = await createTestDatabase();
  node = await startTreasuryNode(TREASURY, { mint: MINT, decimals: 6 });
});
afterAll(async () => {
  await node.close();
  await t.drop();
});

const store = () => createTreasuryStore(t.db);
const scanner = () =>
  createTreasuryScanner({
    rpc: createTreasuryRpc({ url: node.url, treasury: TREASURY, timeoutMs: 2000 }),
    store: store(),
    treasury: TREASURY,
    now: () => new Date(),
    pageSize: 3,
  });
const recorded = async () => (await t.db('treasury_transactions').count({ n: '*' }).first())!.n;
const longAgo = new Date('2020-01-01T00:00:00Z');

describe('treasury scan: every treasury transaction read once, into Postgres', () => {
  it('pages back through new transactions and attributes memo transfers to their intent', async () => {
    const memo = memoFromRandomBytes(Buffer.alloc(16, 3));
    const sigs = [node.ledger.pay({ memos: [memo], lamports: 5 }), ...Array.from({ length: 6 }, () => node.ledger.pay({ memos: [], lamports: 1 }))];
    const report = await scanner().ensureFresh(0, longAgo);
    expect(report).toMatchObject({ listed: 7, recorded: 7 });
    expect(await recorded()).toBe(7);
    expect(await store().transfersFor(memo, { payWith: 'sol' })).toEqual([expect.objectContaining({ signature: sigs[0], units: 5n })]);
  });

  it('fetches only what is new on the next scan, stopping at the newest recorded signature', async () => {
    const before = node.rpc.calls('getTransaction');
    node.ledger.pay({ memos: [], lamports: 1 });
    node.ledger.pay({ memos: [], lamports: 1 });
    expect(await scanner().ensureFresh(0, longAgo)).toMatchObject({ listed: 2, recorded: 2 });
    expect(node.rpc.calls('getTransaction') - before).toBe(2);
  });

  it('leaves no hole when the node fails mid-scan: the next scan records the rest', async () => {
    const fresh = Array.from({ length: 5 }, () => node.ledger.pay({ memos: [], lamports: 1 }));
    node.ledger.setFault(NODE_UNHEALTHY, { method: 'getTransaction', after: 2 });
    await expect(scanner().ensureFresh(0, longAgo)).rejects.toThrow(/Node is unhealthy/);
    node.ledger.setFault(null);
    const known = await store().known(TREASURY, fresh);
    expect(known).toEqual(new Set(fresh.slice(0, 2))); // oldest first, contiguous
    expect(await scanner().ensureFresh(0, longAgo)).toMatchObject({ listed: 3, recorded: 3 });
    expect(await store().known(TREASURY, fresh)).toEqual(new Set(fresh));
  });

  it('shares one scan between concurrent polls and skips a scan younger than the allowed age', async () => {
    node.ledger.pay({ memos: [], lamports: 1 });
    const s = scanner();
    const before = node.rpc.calls('getSignaturesForAddress');
    const [a, b, c] = await Promise.all([s.ensureFresh(60_000, longAgo), s.ensureFresh(60_000, longAgo), s.ensureFresh(60_000, longAgo)]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(await s.ensureFresh(60_000, longAgo)).toBeNull();
    expect(node.rpc.calls('getSignaturesForAddress') - before).toBe(1);
  });

  it('does not page back past the oldest open intent', async () => {
    for (let i = 0; i < 4; i++) node.ledger.pay({ memos: [], lamports: 1, blockTime: 1_700_000_000 + i });
    // The first page (3 transactions) already reaches back before `since`: the fourth is not listed.
    expect(await scanner().ensureFresh(0, new Date(1_800_000_000_000))).toMatchObject({ listed: 3, recorded: 3 });
  });
});

describe('treasury scan of the holder-token accounts', () => {
  const accounts = treasuryTokenAccounts(TREASURY, MINT);
  const rpc = () => createTreasuryRpc({ url: node.url, treasury: TREASURY, holderMint: MINT, timeoutMs: 2000 });
  const tokenScanner = () =>
    createTreasuryScanner({ rpc: rpc(), store: store(), treasury: TREASURY, tokenAccounts: accounts, now: () => new Date(), pageSize: 3 });

  it('sees a transfer to the existing token account, which the wallet’s listing never shows, under SPL Token and Token-2022', async () => {
    const memo = memoFromRandomBytes(Buffer.alloc(16, 11));
    const classic = node.ledger.payToken({ memos: [memo], amountRaw: 4_000_000n });
    const t22 = node.ledger.payToken({ memos: [memo], amountRaw: 6_000_000n, token2022: true });
    expect((await rpc().recentSignatures({ address: TREASURY, limit: 5 })).map((x) => x.signature)).not.toContain(classic);
    await tokenScanner().ensureFresh(0, longAgo);
    expect(await store().transfersFor(memo, { payWith: 'token', mint: MINT })).toEqual([
      expect.objectContaining({ signature: classic, units: 4_000_000n }),
      expect.objectContaining({ signature: t22, units: 6_000_000n }),
    ]);
    expect(await store().transfersFor(memo, { payWith: 'sol' })).toEqual([]);
    expect(await store().receivedFor(memo, { payWith: 'token', mint: MINT })).toEqual({ lamports: 0n, tokensRaw: 10_000_000n, newestSignature: t22 });
  });

  it('keeps each address’s listing whole when a transaction is listed under two of them', async () => {
    const walletOnly = node.ledger.pay({ memos: [], lamports: 1 });
    // The payment that creates the token account names the wallet too; say another scan recorded it under the account.
    const shared = node.ledger.payToken({ memos: [], amountRaw: 1n, createsAccount: true });
    await store().record(TREASURY, accounts[0]!, [(await rpc().transaction(shared))!], new Date());
    await tokenScanner().ensureFresh(0, longAgo);
    // The wallet's listing did not stop at `shared`: the older transaction behind it was recorded too.
    expect(await store().known(TREASURY, [walletOnly, shared])).toEqual(new Set([walletOnly, shared]));
  });
});
