/** Runs `f` over `xs`, `size` at a time: enough in flight to keep the pool busy, few enough not to queue on it. */
export async function inChunks<T>(xs: readonly T[], size: number, f: (x: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < xs.length; i += size) await Promise.all(xs.slice(i, i + size).map(f));
}
