import fs from 'node:fs';
import { Keypair, PublicKey, Transaction, TransactionInstruction, type ParsedTransactionWithMeta } from '@solana/web3.js';
import bs58 from 'bs58';
import type { AnchorKeySource } from '../../platform/settings/ledger-settings';
import { createSolanaConnection, rpcCall } from './solana-connection';

/** The SPL Memo program (v2): it records its data as UTF-8 text and checks every account passed is a signer. */
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** The anchoring key: a Solana CLI keypair file (JSON array of 64 bytes) or a base58 secret. Errors never show the key. */
export function loadAnchorKeypair(source: AnchorKeySource): Keypair {
  let secret: Uint8Array;
  if (source.kind === 'base58') secret = source.secret.reveal();
  else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(source.path, 'utf8'));
    } catch (e) {
      // The cause is left out on purpose: a JSON parse error quotes the file's text, which is the secret key.
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`LEDGER_ANCHOR_KEYPAIR_PATH: cannot read a keypair file at ${source.path} (${(e as NodeJS.ErrnoException).code ?? 'not JSON'})`);
    }
    if (!Array.isArray(parsed) || parsed.length !== 64 || !parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      throw new Error(`LEDGER_ANCHOR_KEYPAIR_PATH: ${source.path} is not a Solana keypair file (a JSON array of 64 bytes)`);
    }
    secret = Uint8Array.from(parsed as number[]);
  }
  try {
    return Keypair.fromSecretKey(secret);
  } catch {
    throw new Error('the ledger anchoring key is not a valid ed25519 secret key (its public half does not match)');
  }
}

/** A signed memo transaction: its signature is known before it is sent, so it can be recorded first. */
export type SignedMemo = { signature: string; rawTx: Uint8Array; lastValidBlockHeight: number };

export type MemoStatus = { state: 'unknown' } | { state: 'failed'; err: string } | { state: 'confirmed'; slot: number };

/** A confirmed transaction as a verifier reads it: its memos (decoded by the node), signers, slot and time. */
export type MemoTransaction = { slot: number; blockTime: number | null; err: unknown; memos: string[]; signers: string[] };

export type MemoAnchorClient = {
  signer: string;
  /** A memo transaction on a fresh blockhash, signed and serialised, not sent. */
  prepare(memo: string): Promise<SignedMemo>;
  /** Sends (or sends again: the same bytes are the same transaction) with the node's preflight check. */
  send(rawTx: Uint8Array): Promise<void>;
  status(signature: string): Promise<MemoStatus>;
  blockHeight(): Promise<number>;
  transaction(signature: string): Promise<MemoTransaction | null>;
};

/** Reads a transaction's memos and signers from a node's `jsonParsed` answer (the memo program decodes to text). */
export function readMemoTransaction(tx: ParsedTransactionWithMeta): MemoTransaction {
  const memos: string[] = [];
  for (const ix of tx.transaction.message.instructions) {
    if ('parsed' in ix && ix.program === 'spl-memo' && typeof ix.parsed === 'string') memos.push(ix.parsed);
  }
  const signers = tx.transaction.message.accountKeys.filter((k) => k.signer).map((k) => k.pubkey.toBase58());
  return { slot: tx.slot, blockTime: tx.blockTime ?? null, err: tx.meta?.err ?? null, memos, signers };
}

/** Reading only (the verifier): no key needed. */
export function createMemoReader(o: { url: string; timeoutMs?: number }): Pick<MemoAnchorClient, 'transaction'> {
  const connection = createSolanaConnection(o.url, o.timeoutMs);
  return {
    transaction: (signature) =>
      rpcCall('getTransaction', async () => {
        const tx = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
        return tx ? readMemoTransaction(tx) : null;
      }),
  };
}

/** Publishes ledger roots as SPL Memo transactions paid and signed by `keypair`, at `confirmed` commitment. */
export function createMemoAnchorClient(o: { url: string; keypair: Keypair; timeoutMs?: number }): MemoAnchorClient {
  const connection = createSolanaConnection(o.url, o.timeoutMs);
  const payer = o.keypair.publicKey;
  return {
    signer: payer.toBase58(),
    prepare: (memo) =>
      rpcCall('getLatestBlockhash', async () => {
        const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
        const tx = new Transaction({ feePayer: payer, blockhash, lastValidBlockHeight }).add(
          new TransactionInstruction({
            programId: MEMO_PROGRAM_ID,
            keys: [{ pubkey: payer, isSigner: true, isWritable: false }],
            data: Buffer.from(memo, 'utf8'),
          }),
        );
        tx.sign(o.keypair);
        return { signature: bs58.encode(tx.signature!), rawTx: new Uint8Array(tx.serialize()), lastValidBlockHeight };
      }),
    send: (rawTx) =>
      rpcCall('sendTransaction', async () => {
        // The node rebroadcasts while the blockhash is valid; the activity also resends the same bytes on each retry.
        await connection.sendRawTransaction(rawTx, { preflightCommitment: 'confirmed' });
      }),
    status: (signature) =>
      rpcCall('getSignatureStatuses', async () => {
        const { value } = await connection.getSignatureStatuses([signature], { searchTransactionHistory: true });
        const s = value[0];
        if (!s) return { state: 'unknown' };
        if (s.err) return { state: 'failed', err: JSON.stringify(s.err) };
        return s.confirmationStatus === 'confirmed' || s.confirmationStatus === 'finalized' ? { state: 'confirmed', slot: s.slot } : { state: 'unknown' };
      }),
    blockHeight: () => rpcCall('getBlockHeight', () => connection.getBlockHeight('confirmed')),
    transaction: createMemoReader(o).transaction,
  };
}
