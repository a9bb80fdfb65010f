import { randomBytes } from 'node:crypto';
import { utils } from '@coral-xyz/anchor';
import { PublicKey, type ParsedTransactionWithMeta } from '@solana/web3.js';
import bs58 from 'bs58';
import { associatedTokenAddress, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, treasuryTokenAccounts } from '../../../clients/solana/token-accounts';
import { readTreasuryTransaction } from '../../../clients/solana/treasury-transaction';
import { memoFromRandomBytes } from '../../../domain/billing/payment-memo';
import { tokenTransferTransaction, type TokenTransfer } from '../../fakes/solana-token-transfer';

const address = () => bs58.encode(randomBytes(32));
const TREASURY = address();
const MINT = address();
const memo = memoFromRandomBytes(randomBytes(16));

/**
 * A mainnet-shaped `jsonParsed` answer (the local node's) as @solana/web3.js hands it over: the same JSON with its
 * account keys and program ids as PublicKey objects.
 */
function parsed(p: Partial<TokenTransfer> & { amountRaw: bigint }): ParsedTransactionWithMeta {
  const t: TokenTransfer = { mint: MINT, decimals: 6, recipient: TREASURY, from: address(), memos: [memo], ...p };
  const { tx } = tokenTransferTransaction(t, bs58.encode(randomBytes(64)), 390_000_000, 1_796_000_000) as { tx: any };
  const keyed = (ix: any) => ({ ...ix, programId: new PublicKey(ix.programId) });
  tx.transaction.message.accountKeys = tx.transaction.message.accountKeys.map((k: any) => ({ ...k, pubkey: new PublicKey(k.pubkey) }));
  tx.transaction.message.instructions = tx.transaction.message.instructions.map(keyed);
  tx.meta.innerInstructions = tx.meta.innerInstructions.map((i: any) => ({ ...i, instructions: i.instructions.map(keyed) }));
  return tx as ParsedTransactionWithMeta;
}
const read = (tx: ParsedTransactionWithMeta, mint: string | null = MINT) => readTreasuryTransaction('sig', tx, TREASURY, mint);

describe('reading holder-token payments from jsonParsed transactions', () => {
  it('takes the amount that reached the treasury’s token account from the node’s token balances, with the memo', () => {
    const tx = read(parsed({ amountRaw: 25_000_500_000n }));
    expect(tx).toMatchObject({ failed: false, memos: [memo], lamportsToTreasury: 0n, tokensToTreasury: { mint: MINT, raw: 25_000_500_000n } });
    expect(tx.payer).not.toBeNull();
  });

  it('counts a payment that creates the treasury’s token account (no pre balance) and one to a Token-2022 account', () => {
    expect(read(parsed({ amountRaw: 7n, createsAccount: true })).tokensToTreasury?.raw).toBe(7n);
    expect(read(parsed({ amountRaw: 9n, token2022: true })).tokensToTreasury?.raw).toBe(9n);
    // An account that already held tokens: only the increase is paid in.
    expect(read(parsed({ amountRaw: 5n, recipientBefore: 1_000_000n })).tokensToTreasury?.raw).toBe(5n);
  });

  it('counts nothing of another mint, to another owner, of a failed transaction, or leaving the treasury', () => {
    expect(read(parsed({ amountRaw: 5n, mint: address() })).tokensToTreasury).toEqual({ mint: MINT, raw: 0n });
    expect(read(parsed({ amountRaw: 5n, recipient: address() })).tokensToTreasury?.raw).toBe(0n);
    const failed = read(parsed({ amountRaw: 5n, err: { InstructionError: [1, { Custom: 1 }] } }));
    expect(failed).toMatchObject({ failed: true, tokensToTreasury: { raw: 0n } });
    expect(read(parsed({ amountRaw: 5n, from: TREASURY, recipient: address() })).tokensToTreasury?.raw).toBe(0n);
  });

  it('trusts balances, not instructions or logs: a transfer instruction without a balance change moves nothing', () => {
    const tx = parsed({ amountRaw: 5n });
    tx.meta!.postTokenBalances = tx.meta!.preTokenBalances;
    expect(read(tx).tokensToTreasury?.raw).toBe(0n);
  });

  it('measures no token where no holder mint is configured', () => {
    expect(read(parsed({ amountRaw: 5n }), null).tokensToTreasury).toBeNull();
  });
});

describe('the treasury’s token accounts', () => {
  it('are its associated token accounts under SPL Token and Token-2022', () => {
    const owner = new PublicKey(TREASURY);
    const mint = new PublicKey(MINT);
    // Anchor's own derivation (SPL Token only) as an independent check of the seeds.
    expect(associatedTokenAddress(TREASURY, MINT, TOKEN_PROGRAM_ID)).toBe(utils.token.associatedAddress({ mint, owner }).toBase58());
    const accounts = treasuryTokenAccounts(TREASURY, MINT);
    expect(accounts).toEqual([associatedTokenAddress(TREASURY, MINT, TOKEN_PROGRAM_ID), associatedTokenAddress(TREASURY, MINT, TOKEN_2022_PROGRAM_ID)]);
    expect(new Set(accounts).size).toBe(2);
  });
});
