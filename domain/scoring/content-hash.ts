/**
 * A fast, non-cryptographic 53-bit content hash (cyrb53's mixing, fed incrementally) for model version
 * strings: the same corpus and options always give the same version, a changed row gives another. Not for
 * anything adversarial; the ledger uses SHA-256.
 */
const NUMBER = new Float64Array(1);
const WORDS = new Uint32Array(NUMBER.buffer);

export class ContentHash {
  private h1: number;
  private h2: number;

  constructor(seed = 0) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }

  update(text: string): this {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      this.h1 = Math.imul(this.h1 ^ c, 2654435761);
      this.h2 = Math.imul(this.h2 ^ c, 1597334677);
    }
    // A separator, so ("ab", "c") and ("a", "bc") differ.
    this.h1 = Math.imul(this.h1 ^ 0x1f, 2654435761);
    this.h2 = Math.imul(this.h2 ^ 0x1f, 1597334677);
    return this;
  }

  /**
   * Feeds each number's eight IEEE-754 bytes (as two 32-bit words): no decimal string per number, and every
   * distinct double (-0 and each NaN payload included) hashes differently. A fixed count per call needs no separator.
   */
  updateNumbers(xs: ArrayLike<number>, count = xs.length): this {
    for (let i = 0; i < count; i++) {
      NUMBER[0] = xs[i]!;
      for (let w = 0; w < 2; w++) {
        const c = WORDS[w]!;
        this.h1 = Math.imul(this.h1 ^ c, 2654435761);
        this.h2 = Math.imul(this.h2 ^ c, 1597334677);
      }
    }
    return this;
  }

  /** 14 hex digits. */
  digest(): string {
    let h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507);
    h1 ^= Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909);
    let h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
  }
}
