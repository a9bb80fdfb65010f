export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  for (const key of ['__stopTemporal', '__stopPostgres']) {
    const stop = g[key] as (() => Promise<void>) | undefined;
    if (stop) await stop().catch((e) => console.error(e));
  }
}
