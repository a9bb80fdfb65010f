import bs58 from 'bs58';
import { SeededRandom, hashSeed } from './seeded-random';

// Bound once: global lookups are slow under jest's vm sandbox (see seeded-random.ts).
const { floor } = Math;
const { fromCharCode } = String;

/**
 * Valid-looking Solana addresses and signatures for the simulator, all derived from the seed. Standing
 * populations (creators, retail traders, smart wallets, sniper bots) are addressed by index and derived on
 * demand, so they recur across mints (creator histories, leaderboards) without being stored.
 */
export type WalletGroup = 'creator-runner' | 'creator-rugger' | 'creator' | 'retail' | 'smart' | 'sniper' | 'mayhem-agent';

export class AddressBook {
  /** Memo of encoded addresses per group; bounded by the configured population sizes (~6 MB at 100k). */
  private readonly memo = new Map<WalletGroup, string[]>();

  constructor(private readonly seed: number) {}

  wallet(group: WalletGroup, index: number): string {
    let addresses = this.memo.get(group);
    if (addresses === undefined) this.memo.set(group, (addresses = []));
    return (addresses[index] ??= publicKey(new SeededRandom(hashSeed(this.seed, 'wallet', group, index))));
  }
}

/** A 32-byte key in base58 (43–44 characters). */
export const publicKey = (rng: SeededRandom) => bs58.encode(rng.bytes(32));

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * A 64-byte transaction signature in base58, 88 characters. Drawn digit by digit rather than encoding 64
 * random bytes: bs58 costs ~16 µs per signature (quadratic in length) and was most of the simulator's time.
 * A leading digit of 2–5 keeps the value in [58^87, 5·58^87), i.e. above 2^504 and below 2^512, so every
 * string decodes to exactly 64 bytes.
 */
export function signature(rng: SeededRandom): string {
  const codes = SIGNATURE_CODES;
  codes[0] = ALPHABET_CODES[1 + (rng.nextUint32() & 3)]!;
  for (let i = 1; i < 88;) {
    // Five base58 digits per 32-bit draw; draws past 6·58^5 are rejected so every digit stays uniform.
    let w = rng.nextUint32();
    if (w >= DIGITS5_LIMIT) continue;
    for (let j = 0; j < 5 && i < 88; j++, i++) {
      codes[i] = ALPHABET_CODES[w % 58]!;
      w = floor(w / 58);
    }
  }
  return fromCharCode(...codes);
}

const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const SIGNATURE_CODES: number[] = new Array<number>(88).fill(0);
const DIGITS5_LIMIT = 6 * 58 ** 5;

/**
 * A mint address ending in "pump", like most of the launchpad's (vanity-ground) mints: 176 of 198 creates in
 * the recorded PumpPortal session. Rewriting the last four base58 digits keeps the value a 32-byte key
 * unless it overflows, in which case another key is drawn.
 */
export function mintAddress(rng: SeededRandom): string {
  for (;;) {
    const encoded = bs58.encode(rng.bytes(32));
    if (encoded.length < 43) continue;
    const vanity = `${encoded.slice(0, -4)}pump`;
    if (bs58.decode(vanity).length === 32) return vanity;
  }
}
