/**
 * Why /api/health is not `ok`, in words a person can act on. Each reason names a published capability that is
 * withheld or stale (or a dependency that is down) and why, so the dashboard can say it instead of "All systems
 * normal". Pure: the API reads the facts and passes them in.
 */
export type HealthReason = { code: string; message: string };

export type HealthFacts = {
  postgres: { state: 'up' | 'down'; error: string | null };
  temporal: { state: 'up' | 'down' | 'not_configured'; error: string | null } | undefined;
  live: { state: 'fresh' | 'stale' | 'missing'; ageS: number | null; staleAfterS: number; preRestart?: boolean };
  /** The composite signal's price rule now; undefined when it could not be read in time. */
  composite: { state: 'crossing' | 'withholding'; reason: 'native_price_unknown' | 'native_price_stale' | null } | undefined;
  /** The fitted models; undefined when they could not be read in time. */
  models: { predictor: string; ageBucket: number; status: 'warming' | 'live'; samplesTotal: number; minSamples: number }[] | undefined;
  /** What each launch feed last reported; undefined when it could not be read in time. */
  feeds: { name: string; connected: boolean; reportedAgoS: number }[] | undefined;
  /** A feed that has not reported for this long is taken for down (the ingest daemon reports every 30 s). */
  feedStaleAfterS: number;
  tick: { ageS: number; staleAfterS: number } | null;
  alerts: { code: string; message: string }[];
};

const s = (n: number) => `${Math.round(n)} s`;

export function healthReasons(f: HealthFacts): HealthReason[] {
  const out: HealthReason[] = [];
  if (f.postgres.state === 'down')
    out.push({ code: 'postgres_down', message: `PostgreSQL is unreachable (${f.postgres.error ?? 'no answer'}): reads are answered from memory` });
  if (f.temporal?.state === 'down')
    out.push({ code: 'temporal_down', message: `Temporal is unreachable (${f.temporal.error ?? 'no answer'}): nothing new is scored, committed or delivered` });
  if (f.live.state === 'missing')
    out.push({ code: 'live_list_missing', message: 'the live list has not been built yet: the worker is starting or not running' });
  if (f.live.state === 'stale' && f.live.preRestart)
    out.push({
      code: 'live_list_stale',
      message: "the live list was built before the worker restarted: it is stale until the projector's first fresh refresh",
    });
  else if (f.live.state === 'stale')
    out.push({
      code: 'live_list_stale',
      message: `the live list is ${s(f.live.ageS ?? 0)} old (allowed ${s(f.live.staleAfterS)}): the worker's projector has stopped refreshing it`,
    });
  if (f.composite?.reason === 'native_price_unknown')
    out.push({ code: 'native_price_unknown', message: 'no SOL/USD price has been fetched: composite signals are withheld and USD figures are missing' });
  if (f.composite?.reason === 'native_price_stale')
    out.push({ code: 'native_price_stale', message: 'the SOL/USD price is stale (the price source is failing): composite signals are withheld' });
  if (f.models && f.models.length === 0) out.push({ code: 'models_not_fitted', message: 'no model has been fitted yet: scores are not published' });
  for (const m of f.models ?? [])
    if (m.status === 'warming')
      out.push({
        code: `model_warming:${m.predictor}@${m.ageBucket}`,
        message: `the ${m.predictor} model at ${m.ageBucket} s is warming (${m.samplesTotal} of ${m.minSamples} resolved samples): its score is not published`,
      });
  if (f.feeds && f.feeds.length === 0) out.push({ code: 'no_feed', message: 'no launch feed has reported: the ingest daemon is not running' });
  for (const feed of f.feeds ?? []) {
    if (feed.reportedAgoS > f.feedStaleAfterS)
      out.push({ code: `feed_down:${feed.name}`, message: `the ${feed.name} feed last reported ${s(feed.reportedAgoS)} ago: the ingest daemon has stopped` });
    else if (!feed.connected)
      out.push({ code: `feed_down:${feed.name}`, message: `the ${feed.name} feed is disconnected: new launches and trades are missed` });
  }
  if (f.tick && f.tick.ageS > f.tick.staleAfterS)
    out.push({ code: 'watchdog_stale', message: `the watchdog last ticked ${s(f.tick.ageS)} ago: the worker or its schedules have stopped` });
  for (const a of f.alerts) out.push({ code: `alert:${a.code}`, message: a.message });
  return out;
}
