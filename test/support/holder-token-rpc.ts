import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { RpcFault, type SolanaRpcFake } from '../fakes/solana-rpc-server';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const DECIMALS = 6;
const address = (seed: string) => bs58.encode(createHash('sha256').update(seed).digest());

/** A holder-token mint address for tests. */
export const TEST_HOLDER_MINT = address('holder-mint');

/**
 * Teaches the local Solana RPC server the two reads of a holder balance, in the real wire format:
 * `getTokenAccountsByOwner` (filtered by mint; a holder's balance is split over two token accounts so the
 * client must add them up) and `getTokenAccountBalance`. `setDown(true)` answers JSON-RPC errors.
 */
export function installHolderToken(fake: SolanaRpcFake, mint = TEST_HOLDER_MINT) {
  const accounts = new Map<string, bigint>(); // token account → raw amount
  const owned = new Map<string, string[]>(); // wallet → its token accounts
  let down = false;
  const context = { slot: 341_000_000, apiVersion: '2.2.3' };

  fake.handle('getTokenAccountsByOwner', (params) => {
    if (down) throw new RpcFault(-32005, 'Node is unhealthy');
    const [owner, filter] = params as [string, { mint?: string }];
    const list = filter.mint === mint ? (owned.get(owner) ?? []) : [];
    return {
      context,
      value: list.map((pubkey) => ({
        pubkey,
        account: {
          data: ['', 'base64'],
          executable: false,
          lamports: 2_039_280,
          owner: TOKEN_PROGRAM,
          rentEpoch: 2 ** 64 - 1 /* u64::MAX, as real nodes send it */,
          space: 165,
        },
      })),
    };
  });
  fake.handle('getTokenAccountBalance', (params) => {
    if (down) throw new RpcFault(-32005, 'Node is unhealthy');
    const raw = accounts.get(params[0] as string);
    if (raw === undefined) throw new RpcFault(-32602, 'Invalid param: could not find account');
    const ui = Number(raw) / 10 ** DECIMALS;
    return { context, value: { amount: raw.toString(), decimals: DECIMALS, uiAmount: ui, uiAmountString: String(ui) } };
  });

  return {
    /** The wallet holds `ui` tokens (UI units), over two token accounts. */
    setBalance(wallet: string, ui: number) {
      const raw = BigInt(Math.round(ui * 10 ** DECIMALS));
      const [a, b] = [address(`${wallet}:0`), address(`${wallet}:1`)];
      accounts.set(a, raw / 3n);
      accounts.set(b, raw - raw / 3n);
      owned.set(wallet, [a, b]);
    },
    setDown: (v: boolean) => void (down = v),
  };
}
export type HolderToken = ReturnType<typeof installHolderToken>;
