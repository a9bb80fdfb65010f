import { createHash } from 'node:crypto';

// Globals bound once: under jest's vm sandbox every global lookup (Math, Date, BigInt…) costs ~300 ns,
// which made the simulator ~100× slower in tests than in production.
const { exp, floor, imul, log, max, min, round, sqrt } = Math;

/**
 * A small seeded PRNG (xoshiro128**, seeded through splitmix32) with the distributions the market simulator
 * draws from. Math.random cannot be seeded, and a seed must reproduce a market exactly, so every random
 * choice in the simulator comes from one of these streams.
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | null = null;

  /** A 32-bit seed, or the whole 128-bit state (see `deriveWide`). */
  constructor(seed: number | readonly [number, number, number, number]) {
    if (typeof seed !== 'number') {
      [this.s0, this.s1, this.s2, this.s3] = seed.map((w) => w >>> 0) as [number, number, number, number];
      if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
      return;
    }
    // splitmix32 spreads any 32-bit seed (including 0) over the 128-bit state; xoshiro's state must not be all zero.
    let x = seed >>> 0;
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = imul(z ^ (z >>> 16), 0x85ebca6b);
      z = imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const result = imul(rotl(imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1), 53 bits of precision. */
  float(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /** Integer in [lo, hiExclusive). */
  int(lo: number, hiExclusive: number): number {
    return lo + floor(this.float() * (hiExclusive - lo));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Exponential with the given rate (mean 1/rate). */
  exponential(rate: number): number {
    return -log(1 - this.float()) / rate;
  }

  /** Standard normal (Marsaglia polar method; the spare value is kept for the next call). */
  normal(): number {
    if (this.spareNormal !== null) {
      const v = this.spareNormal;
      this.spareNormal = null;
      return v;
    }
    let u: number, v: number, s: number;
    do {
      u = this.float() * 2 - 1;
      v = this.float() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = sqrt((-2 * log(s)) / s);
    this.spareNormal = v * m;
    return u * m;
  }

  /** Log-normal given its median and the sigma of its log (simulator parameters read better as medians). */
  lognormal(median: number, sigma: number): number {
    return median * exp(sigma * this.normal());
  }

  /** Poisson count (Knuth for small means, a rounded normal approximation above 30). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return max(0, round(mean + sqrt(mean) * this.normal()));
    const limit = exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k++;
      p *= this.float();
    }
    return k;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(0, items.length)]!;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      let w = this.nextUint32();
      for (let j = i; j < min(n, i + 4); j++) {
        out[j] = w & 0xff;
        w >>>= 8;
      }
    }
    return out;
  }

  /** An independent stream derived from this seed and a label, so one mint's draws never shift another's. */
  static derive(seed: number, ...parts: (number | string)[]): SeededRandom {
    return new SeededRandom(hashSeed(seed, ...parts));
  }

  /**
   * Like `derive`, but the whole 128-bit state comes from SHA-256 of the seed and labels. `derive` has 2^32
   * streams, so labels that keep coming (every mint of every run of a long demo) would sooner or later share
   * one and repeat a mint address; here two labels share a stream with odds of about 2^-128.
   */
  static deriveWide(seed: number, ...parts: (number | string)[]): SeededRandom {
    const d = createHash('sha256')
      .update(JSON.stringify([seed, ...parts]))
      .digest();
    return new SeededRandom([d.readUInt32LE(0), d.readUInt32LE(4), d.readUInt32LE(8), d.readUInt32LE(12)]);
  }
}

/** Mixes a seed with labels into a 32-bit seed (FNV-1a over the parts, then a murmur finaliser). */
export function hashSeed(seed: number, ...parts: (number | string)[]): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  const mix = (byte: number) => {
    h ^= byte & 0xff;
    h = imul(h, 0x01000193);
  };
  for (const part of parts) {
    const text = typeof part === 'number' ? `#${part}` : `$${part}`;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      mix(c);
      mix(c >>> 8);
    }
  }
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
