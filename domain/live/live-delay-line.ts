/** A snapshot body held back until it is old enough to serve as a delayed list. */
export type HeldSnapshot = { builtAt: Date; count: number; body: string };

/**
 * Holds a sample of the live list every `sampleEveryS` and releases the newest one that is at least `delayS`
 * old: the Free tier's list "as it was 5 minutes ago". Memory is bounded by delayS / sampleEveryS bodies.
 * Kept in the projector's memory: after a worker restart the previous delayed list (already in Postgres)
 * keeps being served, growing older, until a new sample comes due.
 */
export function createLiveDelayLine(delayS: number, sampleEveryS: number) {
  const held: HeldSnapshot[] = [];
  return {
    /** Offers this refresh's list (built lazily, only when sampled); returns a held one that came due, if any. */
    offer(builtAt: Date, build: () => Omit<HeldSnapshot, 'builtAt'>): HeldSnapshot | undefined {
      const last = held[held.length - 1];
      if (!last || builtAt.getTime() - last.builtAt.getTime() >= sampleEveryS * 1000) held.push({ builtAt, ...build() });
      let due: HeldSnapshot | undefined;
      while (held.length && held[0]!.builtAt.getTime() <= builtAt.getTime() - delayS * 1000) due = held.shift();
      return due;
    },
  };
}
