/**
 * Whether the curve can price a position now. Before graduation a position is priced at its mint's virtual reserves
 * after the last ingested trade: a quiet mint's reserves are its price, so a mint without trades is no reason to
 * stop pricing it. That holds only while the launchpad's trade tape flows. The tape's freshness is the newest
 * `lastEventAt` the ingest's feeds report (`ingest_feed_stats`, written every 30 s): the launchpad trades several
 * times a second, so a tape that has brought nothing for `maxLagS` means the ingest or its feeds are down, and
 * then the curve gives no price (the exit rules close as `stale_price` once none has come for their limit).
 *
 * No feed has ever reported (null): nothing says the tape is down (a deployment fed by another writer, tests).
 */
export function curveTapeDown(lastEventAtMs: number | null, nowMs: number, maxLagS: number): boolean {
  if (!Number.isInteger(maxLagS) || maxLagS <= 0) throw new RangeError(`the tape's lag limit must be a positive whole number of seconds, got ${maxLagS}`);
  return lastEventAtMs !== null && nowMs - lastEventAtMs >= maxLagS * 1000;
}
