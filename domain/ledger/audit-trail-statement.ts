/** Every track the spec names, with what its leaves are; a track is `live` only once its rows are being committed. */
export const TRACK_SCOPE: Readonly<Record<string, string>> = {
  grad_prob: 'every logged grad_prob prediction (both ages, 30 s and 60 s)',
  composite: 'every published first cross of the composite signal (ACT / WATCH / SCOUT, with its tier)',
  perps: 'every smart-money entry of the perps observatory',
  verdict: 'every locked pre-registered verdict (GET /api/verdict)',
};

export type TrackFacts = { commits: number; anchored: number; latest: Date | null };

export type AuditTrailStatement = {
  summary: string;
  grace_s: number;
  anchoring: 'solana-memo' | 'off';
  tracks: {
    track: string;
    status: 'live' | 'planned';
    leaves: string;
    commits: number;
    anchored_commits: number;
    latest_hour_start: string | null;
  }[];
};

/**
 * What /api/scope says about the audit trail: per track whether its rows are committed (it has a row source), how
 * many commits exist, and one sentence that claims no more than that.
 */
export function auditTrailStatement(o: {
  liveTracks: readonly string[];
  facts: Record<string, TrackFacts>;
  graceS: number;
  anchoring: boolean;
}): AuditTrailStatement {
  const tracks = Object.entries(TRACK_SCOPE).map(([track, leaves]) => {
    const f = o.facts[track] ?? { commits: 0, anchored: 0, latest: null };
    return {
      track,
      status: o.liveTracks.includes(track) ? ('live' as const) : ('planned' as const),
      leaves,
      commits: f.commits,
      anchored_commits: f.anchored,
      latest_hour_start: f.latest ? f.latest.toISOString() : null,
    };
  });
  const live = tracks.filter((t) => t.status === 'live');
  const planned = tracks.filter((t) => t.status === 'planned').map((t) => t.track);
  const minutes = Math.round(o.graceS / 60);
  const summary =
    (live.length
      ? `hourly merkle commits, hash-chained per track, over ${live.map((t) => t.leaves).join('; ')}: each closed UTC hour is sealed and committed about ${minutes} min after it closes` +
        (o.anchoring ? ', and each root is anchored in a Solana memo transaction' : '')
      : 'no ledger track is committed yet') + (planned.length ? `; not committed yet: ${planned.join(', ')}` : '');
  return { summary, grace_s: o.graceS, anchoring: o.anchoring ? 'solana-memo' : 'off', tracks };
}
