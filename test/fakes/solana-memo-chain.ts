import { randomBytes } from 'node:crypto';
import { Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { RpcFault, startSolanaRpcServer, type SolanaRpcFake } from './solana-rpc-server';
import { MEMO_V2 } from './solana-treasury-ledger';

/**
 * Memo transactions on the local Solana RPC node, in the real wire format: `getLatestBlockhash` (a blockhash valid
 * for 150 blocks), `getBlockHeight`, `sendTransaction` (a base64 wire transaction, decoded, its signatures checked,
 * its blockhash checked for expiry, the memo program's rule that every account it names signed), then
 * `getSignatureStatuses` and `getTransaction` (`jsonParsed`: the memo decoded to text, as a node decodes SPL Memo).
 * A landed transaction is confirmed at the next status query. The block height advances one per call, or by
 * `advance`; `dropNextSends(n)` accepts transactions that then never land (a congested leader).
 */
const FEE = 5000;
const VALID_BLOCKS = 150;

type Landed = { signature: string; slot: number; blockTime: number; memos: string[]; signers: string[]; accountKeys: object[]; recentBlockhash: string };

export function installMemoChain(rpc: SolanaRpcFake) {
  let height = 310_000_000;
  let slot = 330_000_000;
  const blockhashes = new Map<string, number>(); // blockhash → last valid block height
  const landed = new Map<string, Landed>();
  const sent: { signature: string; memos: string[]; dropped: boolean }[] = [];
  let drop = 0;

  rpc.handle('getLatestBlockhash', () => {
    height++;
    const blockhash = bs58.encode(randomBytes(32));
    blockhashes.set(blockhash, height + VALID_BLOCKS);
    return { context: { apiVersion: '2.2.3', slot: ++slot }, value: { blockhash, lastValidBlockHeight: height + VALID_BLOCKS } };
  });
  rpc.handle('getBlockHeight', () => ++height);

  rpc.handle('sendTransaction', (params) => {
    const [wire, config] = params as [string, { encoding?: string } | undefined];
    if (config?.encoding !== 'base64') throw new RpcFault(-32602, 'this node takes base64 transactions only');
    let tx: Transaction;
    try {
      tx = Transaction.from(Buffer.from(wire, 'base64'));
    } catch (e) {
      throw new RpcFault(-32602, `invalid transaction: failed to deserialize: ${(e as Error).message}`);
    }
    if (!tx.verifySignatures()) throw new RpcFault(-32003, 'Transaction signature verification failure');
    const signature = bs58.encode(tx.signature!);
    if (landed.has(signature)) throw new RpcFault(-32002, 'Transaction simulation failed: This transaction has already been processed');
    const valid = blockhashes.get(tx.recentBlockhash!);
    if (valid === undefined || valid < height) throw new RpcFault(-32002, 'Transaction simulation failed: Blockhash not found');
    const memos: string[] = [];
    for (const ix of tx.instructions) {
      if (ix.programId.toBase58() !== MEMO_V2) throw new RpcFault(-32002, 'Transaction simulation failed: this node runs only the memo program');
      if (ix.keys.some((k) => !k.isSigner))
        throw new RpcFault(-32002, 'Transaction simulation failed: Error processing Instruction 0: missing required signature for instruction');
      memos.push(ix.data.toString('utf8'));
    }
    if (drop > 0) {
      drop--;
      sent.push({ signature, memos, dropped: true });
      return signature;
    }
    sent.push({ signature, memos, dropped: false });
    const message = tx.compileMessage();
    const signers = message.accountKeys.slice(0, message.header.numRequiredSignatures).map((k) => k.toBase58());
    const accountKeys = message.accountKeys.map((k, i) => ({
      pubkey: k.toBase58(),
      signer: i < message.header.numRequiredSignatures,
      source: 'transaction',
      writable: message.isAccountWritable(i),
    }));
    landed.set(signature, {
      signature,
      slot: (slot += 2),
      blockTime: Math.floor(Date.now() / 1000),
      memos,
      signers,
      accountKeys,
      recentBlockhash: tx.recentBlockhash!,
    });
    return signature;
  });

  rpc.handle('getSignatureStatuses', (params) => {
    const [signatures] = params as [string[]];
    return {
      context: { apiVersion: '2.2.3', slot },
      value: signatures.map((s) => {
        const t = landed.get(s);
        return t ? { slot: t.slot, confirmations: 10, err: null, status: { Ok: null }, confirmationStatus: 'confirmed' } : null;
      }),
    };
  });

  rpc.handle('getTransaction', (params) => {
    const [signature, config] = params as [string, { encoding?: string; maxSupportedTransactionVersion?: number } | undefined];
    if (config?.encoding !== 'jsonParsed') throw new RpcFault(-32602, 'this fake serves memo transactions as jsonParsed only');
    const t = landed.get(signature);
    if (!t) return null;
    return {
      blockTime: t.blockTime,
      meta: {
        computeUnitsConsumed: 7235 * t.memos.length,
        err: null,
        fee: FEE,
        innerInstructions: [],
        logMessages: t.memos.flatMap((m) => [
          `Program ${MEMO_V2} invoke [1]`,
          `Program log: Signed by ${t.signers[0]}`,
          `Program log: Memo (len ${Buffer.byteLength(m)}): ${JSON.stringify(m)}`,
          `Program ${MEMO_V2} consumed 7235 of 200000 compute units`,
          `Program ${MEMO_V2} success`,
        ]),
        postBalances: [1_000_000_000 - FEE, 521_498_880],
        postTokenBalances: [],
        preBalances: [1_000_000_000, 521_498_880],
        preTokenBalances: [],
        rewards: [],
        status: { Ok: null },
      },
      slot: t.slot,
      transaction: {
        message: {
          accountKeys: t.accountKeys,
          instructions: t.memos.map((m) => ({ parsed: m, program: 'spl-memo', programId: MEMO_V2, stackHeight: null })),
          recentBlockhash: t.recentBlockhash,
        },
        signatures: [t.signature],
      },
      version: 'legacy',
    };
  });

  return {
    /** Transactions the node accepted, in order, whether they landed or were dropped. */
    sent: () => [...sent],
    landed: () => [...landed.values()],
    dropNextSends: (n: number) => void (drop = n),
    /** Moves the block height on (past a blockhash's validity, say). */
    advance: (blocks: number) => void (height += blocks),
  };
}

export type MemoChain = ReturnType<typeof installMemoChain>;

/** A local node that runs only the memo program. */
export async function startMemoNode() {
  const rpc = await startSolanaRpcServer({ programId: bs58.encode(randomBytes(32)) });
  return { rpc, chain: installMemoChain(rpc), url: rpc.url, close: () => rpc.close() };
}
export type MemoNode = Awaited<ReturnType<typeof startMemoNode>>;
