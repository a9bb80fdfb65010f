import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { PublicKey } from '@solana/web3.js';

/**
 * SPL token transfers as a node answers `getTransaction` with `encoding: "jsonParsed"`, shaped like mainnet answers
 * for a Solana Pay `spl-token` payment: a `transferChecked` decoded by the token program (`spl-token`, or
 * `spl-token-2022`) with `info.destination`, `info.mint` and `info.tokenAmount`, SPL Memo instructions, and the
 * pre/post token balances with `owner`, `mint` and `uiTokenAmount`. A payment to a treasury that has no token
 * account yet creates it first (`createIdempotent` of the associated token account program, which names the owner
 * wallet, so that one is listed under the wallet too); the new account has no pre balance.
 */
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const SYSTEM = '11111111111111111111111111111111';
const MEMO_V2 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const FEE = 5000;
const ACCOUNT_RENT = 2_039_280;

/** The associated token account, derived here from its definition (seeds wallet, token program, mint). */
export function ataOf(wallet: string, mint: string, program = TOKEN_PROGRAM): string {
  const seeds = [wallet, program, mint].map((a) => new PublicKey(a).toBuffer());
  return PublicKey.findProgramAddressSync(seeds, new PublicKey(ATA_PROGRAM))[0].toBase58();
}

export type TokenTransfer = {
  memos?: string[];
  mint: string;
  amountRaw: bigint;
  decimals: number;
  /** The wallet whose associated token account receives the tokens. */
  recipient: string;
  from: string;
  token2022?: boolean;
  /** The recipient's token account does not exist yet: the payer's wallet creates it in the same transaction. */
  createsAccount?: boolean;
  /** What the recipient's token account held before. */
  recipientBefore?: bigint;
  err?: unknown;
};

const ui = (raw: bigint, decimals: number) => {
  const s = (Number(raw) / 10 ** decimals).toString();
  return { amount: raw.toString(), decimals, uiAmount: Number(s), uiAmountString: s };
};

export function tokenTransferTransaction(p: TokenTransfer, signature: string, slot: number, blockTime: number | null): { tx: object; addresses: string[] } {
  const program = p.token2022 ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
  const programName = p.token2022 ? 'spl-token-2022' : 'spl-token';
  const source = ataOf(p.from, p.mint, program);
  const destination = ataOf(p.recipient, p.mint, program);
  const memos = p.memos ?? [];
  const ok = p.err === undefined || p.err === null;
  const moved = ok ? p.amountRaw : 0n;
  const sourceBefore = p.amountRaw * 4n;
  const destBefore = p.recipientBefore ?? 0n;
  const balance = (accountIndex: number, owner: string, raw: bigint) => ({
    accountIndex,
    mint: p.mint,
    owner,
    programId: program,
    uiTokenAmount: ui(raw, p.decimals),
  });

  const accountKeys = [
    { pubkey: p.from, signer: true, source: 'transaction', writable: true },
    { pubkey: source, signer: false, source: 'transaction', writable: true },
    { pubkey: destination, signer: false, source: 'transaction', writable: true },
    ...(p.createsAccount
      ? [
          { pubkey: p.recipient, signer: false, source: 'transaction', writable: false },
          { pubkey: SYSTEM, signer: false, source: 'transaction', writable: false },
          { pubkey: ATA_PROGRAM, signer: false, source: 'transaction', writable: false },
        ]
      : []),
    { pubkey: p.mint, signer: false, source: 'transaction', writable: false },
    { pubkey: program, signer: false, source: 'transaction', writable: false },
    ...(memos.length ? [{ pubkey: MEMO_V2, signer: false, source: 'transaction', writable: false }] : []),
  ];
  const create = {
    parsed: {
      info: { account: destination, mint: p.mint, source: p.from, systemProgram: SYSTEM, tokenProgram: program, wallet: p.recipient },
      type: 'createIdempotent',
    },
    program: 'spl-associated-token-account',
    programId: ATA_PROGRAM,
    stackHeight: null,
  };
  const createInner = [
    { parsed: { info: { mint: p.mint }, type: 'getAccountDataSize' }, program: programName, programId: program, stackHeight: 2 },
    {
      parsed: { info: { lamports: ACCOUNT_RENT, newAccount: destination, owner: program, source: p.from, space: 165 }, type: 'createAccount' },
      program: 'system',
      programId: SYSTEM,
      stackHeight: 2,
    },
    { parsed: { info: { account: destination }, type: 'initializeImmutableOwner' }, program: programName, programId: program, stackHeight: 2 },
    {
      parsed: { info: { account: destination, mint: p.mint, owner: p.recipient }, type: 'initializeAccount3' },
      program: programName,
      programId: program,
      stackHeight: 2,
    },
  ];
  const transfer = {
    parsed: { info: { authority: p.from, destination, mint: p.mint, source, tokenAmount: ui(p.amountRaw, p.decimals) }, type: 'transferChecked' },
    program: programName,
    programId: program,
    stackHeight: null,
  };
  const memoIxs = memos.map((m) => ({ parsed: m, program: 'spl-memo', programId: MEMO_V2, stackHeight: null }));
  const destIndex = 2;
  const logs = [
    ...(p.createsAccount ? [`Program ${ATA_PROGRAM} invoke [1]`, 'Program log: CreateIdempotent', `Program ${ATA_PROGRAM} success`] : []),
    `Program ${program} invoke [1]`,
    'Program log: Instruction: TransferChecked',
    `Program ${program} consumed 6200 of 200000 compute units`,
    ok ? `Program ${program} success` : `Program ${program} failed: custom program error: 0x1`,
    ...memos.flatMap((m) => [
      `Program ${MEMO_V2} invoke [1]`,
      `Program log: Memo (len ${Buffer.byteLength(m)}): ${JSON.stringify(m)}`,
      `Program ${MEMO_V2} success`,
    ]),
  ];
  const lamports = accountKeys.map((k, i) => (i === 0 ? 3_000_000_000 : k.pubkey === source || k.pubkey === destination ? ACCOUNT_RENT : 1));
  const tx = {
    blockTime,
    meta: {
      computeUnitsConsumed: 6200 + memos.length * 7235,
      err: ok ? null : p.err,
      fee: FEE,
      innerInstructions: p.createsAccount ? [{ index: 0, instructions: createInner }] : [],
      loadedAddresses: { readonly: [], writable: [] },
      logMessages: logs,
      postBalances: lamports.map((l, i) => (i === 0 ? l - FEE - (p.createsAccount && ok ? ACCOUNT_RENT : 0) : l)),
      postTokenBalances: [balance(1, p.from, sourceBefore - moved), ...(ok || !p.createsAccount ? [balance(destIndex, p.recipient, destBefore + moved)] : [])],
      preBalances: lamports.map((l, i) => (p.createsAccount && i === destIndex ? 0 : l)),
      preTokenBalances: [balance(1, p.from, sourceBefore), ...(p.createsAccount ? [] : [balance(destIndex, p.recipient, destBefore)])],
      rewards: [],
      status: ok ? { Ok: null } : { Err: p.err },
    },
    slot,
    transaction: {
      message: {
        accountKeys,
        instructions: [...(p.createsAccount ? [create] : []), transfer, ...memoIxs],
        recentBlockhash: bs58.encode(randomBytes(32)),
      },
      signatures: [signature],
    },
    version: 0,
  };
  return { tx, addresses: [destination, ...(p.createsAccount ? [p.recipient] : []), p.from, source] };
}
