import { judgeChallenger, type PairedScore, type PromotionDecision, type PromotionRule } from '../accuracy/shadow-promotion';
import { shadowVersions } from '../scoring/grad-model-versions';
import type { ForwardPrediction } from './walk-forward';

/**
 * What a deployment would actually have served over a walk-forward: the configured champion serves, every configured
 * challenger scores in shadow, and the pre-registered promotion rule (judgeChallenger, the code the deployment's
 * hourly run calls) is replayed at every decision time on the forward predictions resolved by then. The order and
 * finality are the deployment's (shadow-promotion-activities.ts): challengers in configured order, the first decision
 * past `insufficient_data` is final for that (challenger, champion) pair, at most one promotion per run, and a
 * promotion serves from the first refit after the decision, since the champion is read at every fit.
 */
export type ReplayDecision = {
  windowEnd: Date;
  champion: string;
  challenger: string;
  decision: PromotionDecision;
  n: number;
  positives: number;
  upperBound: number | null;
};

export type PublishedReplay = {
  /** Per age, one prediction per forward row: the one made by the version serving at the row's refit. */
  predictions: Map<number, ForwardPrediction[]>;
  /** Every decision stored, in order (the deployment's decision table). */
  decisions: ReplayDecision[];
  /** The version serving from each moment on: the configured champion from the start, then each promotion. */
  served: { from: Date | null; version: string }[];
};

export type ReplayOptions = {
  rule: PromotionRule;
  /** MODEL_CHAMPION, then MODEL_CHALLENGERS, as the deployment is configured. */
  configured: readonly string[];
  /** Decision period (the deployment: hourly, each window ending at a UTC hour's start). */
  everyMs: number;
};

/** `byModel`: every walked model's forward predictions per age (the walk-forward's `byModel`, one map per age). */
export function replayPublished(byModel: ReadonlyMap<string, ReadonlyMap<number, readonly ForwardPrediction[]>>, o: ReplayOptions): PublishedReplay {
  const [first] = o.configured;
  if (first === undefined) throw new RangeError('replay needs a configured champion');
  for (const name of new Set(o.configured)) if (!byModel.has(name)) throw new RangeError(`configured version ${name} was not walked`);
  if (!(o.everyMs > 0)) throw new RangeError(`everyMs must be > 0, got ${o.everyMs}`);
  const all = [...byModel.get(first)!.values()].flat();
  const times = all.map((p) => p.observedAt.getTime());
  // Each version's forward rows keyed by (mint, moment), per age: built once, read at every window and at the end.
  const keyedRows = new Map<string, Map<string, ForwardPrediction>>();
  const rowsOf = (version: string, age: number) => {
    const id = `${version}\u0000${age}`;
    let m = keyedRows.get(id);
    if (!m) keyedRows.set(id, (m = new Map((byModel.get(version)!.get(age) ?? []).map((p) => [rowKey(p), p]))));
    return m;
  };
  const decisions: ReplayDecision[] = [];
  const served: PublishedReplay['served'] = [{ from: null, version: first }];
  if (all.length > 0) {
    let champion = first;
    const final = new Set<string>();
    // Decisions after the last forward row would change nothing served.
    const last = times.reduce((a, t) => Math.max(a, t), -Infinity);
    for (let w = Math.ceil(times.reduce((a, t) => Math.min(a, t), Infinity) / o.everyMs) * o.everyMs; w <= last; w += o.everyMs) {
      const windowEnd = new Date(w);
      for (const challenger of shadowVersions(champion, o.configured)) {
        const pair = `${challenger}\u0000${champion}`;
        if (final.has(pair)) continue;
        const evidence = judgeChallenger(pairsAt(byModel, rowsOf, champion, challenger, w), { rule: o.rule, champion, challenger, windowEnd });
        decisions.push({
          windowEnd,
          champion,
          challenger,
          decision: evidence.decision,
          n: evidence.n,
          positives: evidence.positives,
          upperBound: evidence.upper_bound,
        });
        if (evidence.decision === 'insufficient_data') continue;
        final.add(pair);
        if (evidence.decision === 'promote') {
          champion = challenger;
          served.push({ from: windowEnd, version: challenger });
          break;
        }
      }
    }
  }
  // A fit at the decision's own instant could not have read it: the promotion serves from the next refit on.
  const servingAt = (fittedAt: Date) => served.filter((s) => s.from === null || s.from.getTime() < fittedAt.getTime()).pop()!.version;
  const predictions = new Map<number, ForwardPrediction[]>();
  for (const [age, firstPreds] of byModel.get(first)!) {
    predictions.set(
      age,
      firstPreds.map((p) => rowsOf(servingAt(p.fittedAt), age).get(rowKey(p)) ?? p),
    );
  }
  return { predictions, decisions, served };
}

/**
 * The (mint, age) pairs both versions scored forward whose outcome resolved by the window end, each logged before
 * its resolution: what the deployment's shadow store pairs. A row not yet resolved at `until` never counts.
 */
function pairsAt(
  byModel: ReadonlyMap<string, ReadonlyMap<number, readonly ForwardPrediction[]>>,
  rowsOf: (version: string, age: number) => ReadonlyMap<string, ForwardPrediction>,
  champion: string,
  challenger: string,
  until: number,
): PairedScore[] {
  const out: PairedScore[] = [];
  for (const [age, preds] of byModel.get(champion)!) {
    const other = rowsOf(challenger, age);
    for (const p of preds) {
      const resolved = p.resolvedAt.getTime();
      if (resolved > until || p.observedAt.getTime() >= resolved) continue;
      const q = other.get(rowKey(p));
      if (q) out.push({ mint: p.mint, ageBucket: age, champion: p.prob, challenger: q.prob, graduated: p.graduated });
    }
  }
  return out;
}

const rowKey = (p: Pick<ForwardPrediction, 'mint' | 'observedAt'>) => `${p.mint}@${p.observedAt.getTime()}`;
