import type { SeededRandom } from './seeded-random';

/**
 * Token balances of one mint's holders, so a sell never sells tokens nobody bought. Parallel arrays with
 * swap-remove keep a uniformly random holder pick O(1); the book lives only as long as its mint is active.
 */
export class HolderBook {
  private readonly wallets: string[] = [];
  private readonly balances: number[] = [];
  private readonly slot = new Map<string, number>();

  get size(): number {
    return this.wallets.length;
  }

  balance(wallet: string): number {
    const i = this.slot.get(wallet);
    return i === undefined ? 0 : this.balances[i]!;
  }

  add(wallet: string, tokensRaw: number): void {
    const i = this.slot.get(wallet);
    if (i !== undefined) {
      this.balances[i]! += tokensRaw;
      return;
    }
    this.slot.set(wallet, this.wallets.length);
    this.wallets.push(wallet);
    this.balances.push(tokensRaw);
  }

  remove(wallet: string, tokensRaw: number): void {
    const i = this.slot.get(wallet);
    if (i === undefined) throw new RangeError(`${wallet} holds nothing`);
    const left = this.balances[i]! - tokensRaw;
    if (left < 0) throw new RangeError(`${wallet} sells more than it holds`);
    if (left > 0) {
      this.balances[i] = left;
      return;
    }
    const last = this.wallets.length - 1;
    const lastWallet = this.wallets[last]!;
    this.wallets[i] = lastWallet;
    this.balances[i] = this.balances[last]!;
    this.slot.set(lastWallet, i);
    this.wallets.pop();
    this.balances.pop();
    this.slot.delete(wallet);
  }

  /** A uniformly random holder, or null when nobody holds the token. */
  pick(rng: SeededRandom, exclude?: string): string | null {
    if (this.wallets.length === 0) return null;
    const w = this.wallets[rng.int(0, this.wallets.length)]!;
    if (w !== exclude) return w;
    if (this.wallets.length === 1) return null;
    return this.wallets[(this.slot.get(w)! + 1) % this.wallets.length]!;
  }
}
