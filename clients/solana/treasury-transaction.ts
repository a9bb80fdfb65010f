import type { ParsedInstruction, ParsedTransactionWithMeta, PartiallyDecodedInstruction, TokenBalance } from '@solana/web3.js';
import type { TreasuryTransaction } from '../../domain/billing/treasury-transaction';

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
/** SPL Memo v2 and the legacy v1 program; nodes parse both as `spl-memo` with the memo text in `parsed`. */
export const MEMO_PROGRAM_IDS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);

type AnyInstruction = ParsedInstruction | PartiallyDecodedInstruction;

const isParsed = (ix: AnyInstruction): ix is ParsedInstruction => 'parsed' in ix;

/**
 * The memos and SOL and holder-token transfers to `treasury` in one transaction, as the node decoded them
 * (`jsonParsed`). Only the System Program's own decoding of `transfer` / `transferWithSeed` is trusted for SOL, and
 * only the node's token balances for tokens: a program that merely logs or claims a transfer moves nothing.
 */
export function readTreasuryTransaction(
  signature: string,
  tx: ParsedTransactionWithMeta,
  treasury: string,
  holderMint: string | null = null,
): TreasuryTransaction {
  const all: AnyInstruction[] = [...tx.transaction.message.instructions];
  for (const inner of tx.meta?.innerInstructions ?? []) all.push(...inner.instructions);
  const memos: string[] = [];
  let lamports = 0n;
  for (const ix of all) {
    if (!isParsed(ix)) continue;
    const programId = ix.programId.toBase58();
    if (MEMO_PROGRAM_IDS.has(programId) && typeof ix.parsed === 'string') {
      memos.push(ix.parsed);
      continue;
    }
    if (programId !== SYSTEM_PROGRAM_ID) continue;
    const p = ix.parsed as { type?: string; info?: { destination?: string; lamports?: number | string } } | null;
    if ((p?.type === 'transfer' || p?.type === 'transferWithSeed') && p.info?.destination === treasury && p.info.lamports !== undefined) {
      lamports += BigInt(p.info.lamports);
    }
  }
  const failed = tx.meta === null || tx.meta.err !== null;
  const payer = tx.transaction.message.accountKeys.find((k) => k.signer)?.pubkey.toBase58() ?? null;
  return {
    signature,
    slot: tx.slot,
    blockTime: tx.blockTime ? new Date(tx.blockTime * 1000) : null,
    failed,
    memos,
    lamportsToTreasury: failed ? 0n : lamports,
    tokensToTreasury: holderMint === null ? null : { mint: holderMint, raw: failed ? 0n : tokensReceived(tx, treasury, holderMint) },
    payer,
  };
}

/**
 * What the treasury's token accounts of `mint` gained, from the node's pre/post token balances (matched by account
 * index; an account the transaction created has no pre balance). Balances rather than transfer instructions: they
 * are what arrived, whichever program moved it, through a CPI or not, and net of a Token-2022 transfer fee, which an
 * instruction's amount is not. A treasury account that lost tokens (its own burn) pays nothing in.
 */
function tokensReceived(tx: ParsedTransactionWithMeta, treasury: string, mint: string): bigint {
  const ours = (b: TokenBalance) => b.owner === treasury && b.mint === mint;
  const before = new Map((tx.meta?.preTokenBalances ?? []).filter(ours).map((b) => [b.accountIndex, BigInt(b.uiTokenAmount.amount)]));
  let gained = 0n;
  for (const b of (tx.meta?.postTokenBalances ?? []).filter(ours)) {
    const delta = BigInt(b.uiTokenAmount.amount) - (before.get(b.accountIndex) ?? 0n);
    if (delta > 0n) gained += delta;
  }
  return gained;
}
