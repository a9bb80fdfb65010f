import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { pageNewestFirst, RpcFault, startSolanaRpcServer, type SolanaRpcFake } from './solana-rpc-server';
import { tokenTransferTransaction, type TokenTransfer } from './solana-token-transfer';

/**
 * Treasury payments (and the treasury's token burns) on the local Solana RPC node, served over its handler registry in the real wire format:
 * `getSignaturesForAddress` entries per address (newest first, `before`/`limit` paging, the node's `"[len] memo"`
 * field) and `getTransaction` with `encoding: "jsonParsed"` — System Program transfers, SPL token transfers
 * (solana-token-transfer.ts) and SPL Memo instructions decoded the way a node decodes them, balances, logs, fee —
 * and `getTokenSupply` of the holder mint. Shapes follow mainnet answers for Solana Pay transfers. A token transfer
 * to an existing token account is listed under that account only, never under the owner wallet, as on mainnet.
 */
export const MEMO_V2 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const SYSTEM = '11111111111111111111111111111111';
const FEE = 5000;

export const randomAddress = () => bs58.encode(randomBytes(32));
const randomSignature = () => bs58.encode(randomBytes(64));

export type TreasuryPayment = {
  /** The memo instruction(s); none for a plain transfer. */
  memos?: string[];
  lamports: number;
  /** Where the lamports go; the treasury unless a test wants a memo transfer to someone else. */
  to?: string;
  from?: string;
  /** Seconds since epoch; defaults to now. Null: the node has no block time for it. */
  blockTime?: number | null;
  /** Transaction error, e.g. `{ InstructionError: [0, { Custom: 1 }] }`. */
  err?: unknown;
  /** Transfer made by a program on the payer's behalf (an inner instruction), as smart wallets do. */
  viaCpi?: boolean;
};

/** What `getSignaturesForAddress` lists a transaction under: the addresses it names. */
type Entry = { signature: string; slot: number; blockTime: number | null; err: unknown; memos: string[]; tx: object; addresses: string[] };

export type HolderMintOnChain = { mint: string; decimals: number; supplyRaw?: bigint };

export function installTreasuryLedger(rpc: SolanaRpcFake, treasury: string, holder?: HolderMintOnChain) {
  const ledger: Entry[] = [];
  const bySignature = new Map<string, Entry>();
  let slot = 385_000_000;
  let fault: { code: number; message: string; method?: string; after: number } | null = null;

  const guard = (method: string) => {
    if (!fault || (fault.method && fault.method !== method)) return;
    if (fault.after > 0) return void fault.after--;
    throw new RpcFault(fault.code, fault.message);
  };

  rpc.handle('getSignaturesForAddress', (params) => {
    guard('getSignaturesForAddress');
    const [address, config = {}] = params as [string, { limit?: number; before?: string; until?: string; commitment?: string }];
    if (config.commitment && !['confirmed', 'finalized'].includes(config.commitment)) {
      throw new RpcFault(-32602, 'Invalid params: getSignaturesForAddress does not support processed commitment');
    }
    return pageNewestFirst(
      ledger.filter((t) => t.addresses.includes(address)),
      config,
    ).map((t) => {
      const memo = t.memos.length ? t.memos.map((m) => `[${Buffer.byteLength(m)}] ${m}`).join('; ') : null;
      return { signature: t.signature, slot: t.slot, err: t.err, memo, blockTime: t.blockTime, confirmationStatus: 'confirmed' };
    });
  });

  rpc.handle('getTransaction', (params) => {
    guard('getTransaction');
    const [signature, config] = params as [string, { encoding?: string; maxSupportedTransactionVersion?: number } | undefined];
    if (config?.maxSupportedTransactionVersion === undefined) {
      throw new RpcFault(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    if (config.encoding !== 'jsonParsed') throw new RpcFault(-32602, 'this fake serves treasury transactions as jsonParsed only');
    return bySignature.get(signature)?.tx ?? null;
  });

  rpc.handle('getTokenSupply', (params) => {
    guard('getTokenSupply');
    const [mint] = params as [string];
    if (!holder || mint !== holder.mint) throw new RpcFault(-32602, 'Invalid param: could not find account');
    const raw = holder.supplyRaw ?? 999_999_999_000_000n;
    const ui = (Number(raw) / 10 ** holder.decimals).toString();
    return { context: { apiVersion: '2.2.3', slot }, value: { amount: raw.toString(), decimals: holder.decimals, uiAmount: Number(ui), uiAmountString: ui } };
  });

  /** Confirms the next transaction: `make` builds it and names the addresses it is listed under. */
  const append = (e: Pick<Entry, 'blockTime' | 'err' | 'memos'>, make: (signature: string, slot: number) => { tx: object; addresses: string[] }): string => {
    const signature = randomSignature();
    slot += 3;
    const entry: Entry = { ...e, signature, slot, ...make(signature, slot) };
    ledger.push(entry);
    bySignature.set(signature, entry);
    return signature;
  };

  function build(p: TreasuryPayment, signature: string, thisSlot: number, blockTime: number | null): object {
    const from = p.from ?? randomAddress();
    const to = p.to ?? treasury;
    const memos = p.memos ?? [];
    const relay = randomAddress();
    const transfer = {
      parsed: { info: { destination: to, lamports: p.lamports, source: from }, type: 'transfer' },
      program: 'system',
      programId: SYSTEM,
      stackHeight: p.viaCpi ? 2 : null,
    };
    const memoIxs = memos.map((m) => ({ parsed: m, program: 'spl-memo', programId: MEMO_V2, stackHeight: null }));
    const accountKeys = [
      { pubkey: from, signer: true, source: 'transaction', writable: true },
      { pubkey: to, signer: false, source: 'transaction', writable: true },
      ...(p.viaCpi ? [{ pubkey: relay, signer: false, source: 'transaction', writable: false }] : []),
      { pubkey: SYSTEM, signer: false, source: 'transaction', writable: false },
      ...(memos.length ? [{ pubkey: MEMO_V2, signer: false, source: 'transaction', writable: false }] : []),
    ];
    const ok = p.err === undefined || p.err === null;
    const fromBefore = 5_000_000_000;
    const toBefore = 12_000_000_000;
    const moved = ok ? p.lamports : 0;
    const balances = (a: number, b: number) => [a, b, ...(p.viaCpi ? [1_141_440] : []), 1, ...(memos.length ? [521_498_880] : [])];
    const logs = [
      ...(p.viaCpi ? [`Program ${relay} invoke [1]`] : []),
      `Program ${SYSTEM} invoke [${p.viaCpi ? 2 : 1}]`,
      `Program ${SYSTEM} success`,
      ...(p.viaCpi ? [`Program ${relay} success`] : []),
      ...memos.flatMap((m) => [
        `Program ${MEMO_V2} invoke [1]`,
        `Program log: Memo (len ${Buffer.byteLength(m)}): ${JSON.stringify(m)}`,
        `Program ${MEMO_V2} consumed 7235 of 199550 compute units`,
        `Program ${MEMO_V2} success`,
      ]),
    ];
    return {
      blockTime,
      meta: {
        computeUnitsConsumed: 150 + memos.length * 7235,
        costUnits: 1637,
        err: ok ? null : p.err,
        fee: FEE,
        innerInstructions: p.viaCpi ? [{ index: 0, instructions: [transfer] }] : [],
        logMessages: logs,
        postBalances: balances(fromBefore - moved - FEE, toBefore + moved),
        postTokenBalances: [],
        preBalances: balances(fromBefore, toBefore),
        preTokenBalances: [],
        rewards: [],
        status: ok ? { Ok: null } : { Err: p.err },
      },
      slot: thisSlot,
      transaction: {
        message: {
          accountKeys,
          instructions: [
            p.viaCpi ? { accounts: [from, to, SYSTEM], data: bs58.encode(randomBytes(12)), programId: relay, stackHeight: null } : transfer,
            ...memoIxs,
          ],
          recentBlockhash: bs58.encode(randomBytes(32)),
        },
        signatures: [signature],
      },
      version: 'legacy',
    };
  }

  return {
    /** Confirms a transaction touching the treasury; returns its signature. */
    pay(p: TreasuryPayment): string {
      const blockTime = p.blockTime === undefined ? Math.floor(Date.now() / 1000) : p.blockTime;
      return append({ blockTime, err: p.err ?? null, memos: p.memos ?? [] }, (sig, s) => ({ tx: build(p, sig, s, blockTime), addresses: [treasury] }));
    },
    /**
     * Confirms an SPL token transfer (`transferChecked`) to the treasury's associated token account, of the holder
     * mint unless `mint` says otherwise; `recipient` pays someone else's. Returns its signature.
     */
    payToken(p: Partial<TokenTransfer> & { amountRaw: bigint; blockTime?: number | null }): string {
      const mint = p.mint ?? holder?.mint;
      if (!mint) throw new Error('this ledger has no holder mint: pass one to startTreasuryNode');
      const t: TokenTransfer = {
        ...p,
        mint,
        decimals: p.decimals ?? holder?.decimals ?? 6,
        recipient: p.recipient ?? treasury,
        from: p.from ?? randomAddress(),
      };
      const blockTime = p.blockTime === undefined ? Math.floor(Date.now() / 1000) : p.blockTime;
      return append({ blockTime, err: p.err ?? null, memos: p.memos ?? [] }, (sig, s) => tokenTransferTransaction(t, sig, s, blockTime));
    },
    /** The treasury burns `amountRaw` of `mint` from its token account (`burnChecked`, or `burn` with raw amount only). */
    burn(b: { mint: string; amountRaw: bigint; decimals: number; checked?: boolean; blockTime?: number; err?: unknown }): string {
      const blockTime = b.blockTime ?? Math.floor(Date.now() / 1000);
      const account = randomAddress();
      const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
      const info =
        b.checked === false
          ? { account, amount: b.amountRaw.toString(), authority: treasury, mint: b.mint }
          : {
              account,
              authority: treasury,
              mint: b.mint,
              tokenAmount: {
                amount: b.amountRaw.toString(),
                decimals: b.decimals,
                uiAmount: Number(b.amountRaw) / 10 ** b.decimals,
                uiAmountString: String(Number(b.amountRaw) / 10 ** b.decimals),
              },
            };
      const balance = (raw: bigint) => ({
        accountIndex: 1,
        mint: b.mint,
        owner: treasury,
        programId: TOKEN,
        uiTokenAmount: {
          amount: raw.toString(),
          decimals: b.decimals,
          uiAmount: Number(raw) / 10 ** b.decimals,
          uiAmountString: String(Number(raw) / 10 ** b.decimals),
        },
      });
      const ok = b.err === undefined || b.err === null;
      const before = b.amountRaw * 3n;
      const make = (signature: string, slot: number) => ({
        blockTime,
        meta: {
          computeUnitsConsumed: 4_753,
          err: ok ? null : b.err,
          fee: FEE,
          innerInstructions: [],
          logMessages: [
            `Program ${TOKEN} invoke [1]`,
            `Program log: Instruction: ${b.checked === false ? 'Burn' : 'BurnChecked'}`,
            `Program ${TOKEN} consumed 4753 of 200000 compute units`,
            `Program ${TOKEN} success`,
          ],
          postBalances: [12_000_000_000 - FEE, 2_039_280, 521_498_880, 934_087_680],
          preBalances: [12_000_000_000, 2_039_280, 521_498_880, 934_087_680],
          preTokenBalances: [balance(before)],
          postTokenBalances: [balance(ok ? before - b.amountRaw : before)],
          rewards: [],
          status: ok ? { Ok: null } : { Err: b.err },
        },
        slot,
        transaction: {
          message: {
            accountKeys: [
              { pubkey: treasury, signer: true, source: 'transaction', writable: true },
              { pubkey: account, signer: false, source: 'transaction', writable: true },
              { pubkey: b.mint, signer: false, source: 'transaction', writable: true },
              { pubkey: TOKEN, signer: false, source: 'transaction', writable: false },
            ],
            instructions: [{ parsed: { info, type: b.checked === false ? 'burn' : 'burnChecked' }, program: 'spl-token', programId: TOKEN, stackHeight: null }],
            recentBlockhash: bs58.encode(randomBytes(32)),
          },
          signatures: [signature],
        },
        version: 'legacy',
      });
      return append({ blockTime, err: b.err ?? null, memos: [] }, (signature, slot) => ({ tx: make(signature, slot), addresses: [treasury] }));
    },
    /**
     * Calls answer this JSON-RPC error until cleared (a node that is down or far behind): every call, or only
     * `method`'s, after the first `after` of them succeed.
     */
    setFault(f: { code: number; message: string } | null, o: { method?: string; after?: number } = {}) {
      fault = f && { ...f, method: o.method, after: o.after ?? 0 };
    },
    size: () => ledger.length,
  };
}

export type TreasuryLedger = ReturnType<typeof installTreasuryLedger>;
export const NODE_UNHEALTHY = { code: -32005, message: 'Node is unhealthy' };

/** A local RPC node whose chain is a treasury ledger (and nothing of the launchpad). */
export async function startTreasuryNode(treasury = randomAddress(), holder?: HolderMintOnChain) {
  const rpc = await startSolanaRpcServer({ programId: randomAddress() });
  return { rpc, ledger: installTreasuryLedger(rpc, treasury, holder), treasury, url: rpc.url, close: () => rpc.close() };
}
export type TreasuryNode = Awaited<ReturnType<typeof startTreasuryNode>>;
