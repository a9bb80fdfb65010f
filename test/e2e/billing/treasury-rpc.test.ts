import { randomBytes } from 'node:crypto';
import { SolanaRpcCallError } from '../../../clients/solana/solana-connection';
import { createMintDecimalsReader } from '../../../clients/solana/mint-decimals-client';
import { treasuryTokenAccounts } from '../../../clients/solana/token-accounts';
import { createTreasuryRpc } from '../../../clients/solana/treasury-rpc-client';
import { memoFromRandomBytes } from '../../../domain/billing/payment-memo';
import { NODE_UNHEALTHY, randomAddress, startTreasuryNode, type TreasuryNode } from '../../fakes/solana-treasury-ledger';

const TREASURY = randomAddress();
const MINT = randomAddress();
let node: TreasuryNode;

beforeAll(async () => {
  node = await startTreasuryNode(TREASURY, { mint: MINT, decimals: 6 });
});
afterAll(() => node.close());

const client = () => createTreasuryRpc({ url: node.url, treasury: TREASURY, timeoutMs: 2000 });
const memo = () => memoFromRandomBytes(randomBytes(16));

describe('treasury RPC client (@solana/web3.js) against a local Solana JSON-RPC node', () => {
  it('reads a Solana Pay transfer: memo, lamports to the treasury, payer, slot and block time', async () => {
    const m = memo();
    const payer = randomAddress();
    const sig = node.ledger.pay({ memos: [m], lamports: 400_000_000, from: payer, blockTime: 1_795_000_000 });
    const [newest] = await client().recentSignatures({ address: TREASURY, limit: 10 });
    expect(newest).toMatchObject({ signature: sig, failed: false, blockTime: new Date(1_795_000_000_000) });
    const tx = await client().transaction(sig);
    expect(tx).toEqual({
      signature: sig,
      slot: newest!.slot,
      blockTime: new Date(1_795_000_000_000),
      failed: false,
      memos: [m],
      lamportsToTreasury: 400_000_000n,
      tokensToTreasury: null,
      payer,
    });
  });

  it('counts transfers a program makes on the payer’s behalf (inner instructions)', async () => {
    const sig = node.ledger.pay({ memos: [memo()], lamports: 1_000_000_000, viaCpi: true });
    expect((await client().transaction(sig))?.lamportsToTreasury).toBe(1_000_000_000n);
  });

  it('moves nothing for a failed transaction or a memo transfer paid to someone else', async () => {
    const failed = node.ledger.pay({ memos: [memo()], lamports: 1_000_000_000, err: { InstructionError: [0, { Custom: 1 }] } });
    expect(await client().transaction(failed)).toMatchObject({ failed: true, lamportsToTreasury: 0n });
    const elsewhere = node.ledger.pay({ memos: [memo()], lamports: 1_000_000_000, to: randomAddress() });
    expect(await client().transaction(elsewhere)).toMatchObject({ failed: false, lamportsToTreasury: 0n });
  });

  it('pages newest first with before/limit, and answers null for an unknown signature', async () => {
    for (let i = 0; i < 5; i++) node.ledger.pay({ memos: [], lamports: 1 });
    const first = await client().recentSignatures({ address: TREASURY, limit: 3 });
    const second = await client().recentSignatures({ address: TREASURY, before: first[2]!.signature, limit: 3 });
    expect(first).toHaveLength(3);
    expect(second[0]!.slot).toBeLessThan(first[2]!.slot);
    expect(await client().transaction('5'.repeat(88))).toBeNull();
  });

  it('reads a holder-token payment over the wire: listed under the token account, amount from the token balances', async () => {
    const m = memo();
    const sig = node.ledger.payToken({ memos: [m], amountRaw: 25_000_500_000n, blockTime: 1_795_000_100 });
    const [ata] = treasuryTokenAccounts(TREASURY, MINT);
    const [listed] = await client().recentSignatures({ address: ata!, limit: 1 });
    expect(listed).toMatchObject({ signature: sig, failed: false });
    const tokenClient = createTreasuryRpc({ url: node.url, treasury: TREASURY, holderMint: MINT, timeoutMs: 2000 });
    expect(await tokenClient.transaction(sig)).toMatchObject({
      memos: [m],
      lamportsToTreasury: 0n,
      tokensToTreasury: { mint: MINT, raw: 25_000_500_000n },
      blockTime: new Date(1_795_000_100_000),
    });
    // A client asked for SOL only measures no token.
    expect((await client().transaction(sig))?.tokensToTreasury).toBeNull();
  });

  it('reads the holder mint’s decimals once (getTokenSupply), and fails plainly on a mint the node does not know', async () => {
    const reader = createMintDecimalsReader({ url: node.url, mint: MINT, timeoutMs: 2000 });
    const before = node.rpc.calls('getTokenSupply');
    expect(await reader.decimals()).toBe(6);
    expect(await reader.decimals()).toBe(6);
    expect(node.rpc.calls('getTokenSupply') - before).toBe(1);
    await expect(createMintDecimalsReader({ url: node.url, mint: randomAddress(), timeoutMs: 2000 }).decimals()).rejects.toBeInstanceOf(SolanaRpcCallError);
  });

  it('reports a node error with its JSON-RPC code, and an unreachable node, as SolanaRpcCallError', async () => {
    node.ledger.setFault(NODE_UNHEALTHY);
    try {
      await expect(client().recentSignatures({ address: TREASURY, limit: 1 })).rejects.toMatchObject({ name: 'SolanaRpcCallError', code: -32005 });
    } finally {
      node.ledger.setFault(null);
    }
    const down = createTreasuryRpc({ url: 'http://127.0.0.1:9/', treasury: TREASURY, timeoutMs: 500 });
    await expect(down.recentSignatures({ address: TREASURY, limit: 1 })).rejects.toBeInstanceOf(SolanaRpcCallError);
  });
});
