import type { AgeReport } from '../../domain/backtest/backtest-report';
import { RUNNER_TIERS } from '../../domain/scoring/runner-model';
import { SHADOW_PROMOTION_V1 } from '../../domain/accuracy/shadow-promotion';
import { PUBLISHED, type BacktestOutcome } from './run-backtest';

/**
 * The models of one walk-forward side by side, per age: ranking (AUC, AUC of the raw neighbour rate, AUPRC),
 * probabilities (log loss, ECE) and precision with n per band; then runner odds per family, and the knn-v2
 * feature ablation (how much each group's removal costs, negative = the group hurt).
 */
export function renderComparison(o: BacktestOutcome): string[] {
  const out: string[] = ['', '### models compared on the same walk-forward', ''];
  out.push(
    `Same corpus, same refit moments, same rows scored. knn-v1: six features, z-scored Euclidean, k = 50. knn-v2: launch features, ` +
      `weights, logistic axis, k and logistic prior chosen per fit by held-out log loss, distance-weighted, calibration map chosen by ` +
      `cross-fitted held-out log loss. "${PUBLISHED}": the version a deployment would have served (below). References: empirical rate by vSol band (20 quantile bands), L2 logistic regression on ` +
      `knn-v2's features. "raw AUC" ranks by the uncalibrated score (the neighbour vote, shrunk toward the logistic prior when chosen).`,
    '',
  );
  out.push('| age | model | n | base rate | AUC | raw AUC | AUPRC | log loss | ECE | ≥ 0.5: precision (n) | ≥ 0.7: precision (n) | ≥ 0.9: precision (n) |');
  out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const a of o.ages) {
    for (const m of a.models.filter((x) => !x.name.includes(' − '))) out.push(row(a.ageS, m.name, m.report));
  }
  out.push('', ...renderPromotion(o), ...renderChoices(o));
  for (const family of ['knn-v1', 'knn-v2']) {
    out.push('', `Runner odds from the call, ${family} (n · mean predicted → observed, AUC):`, '');
    out.push(`| tier | ${o.ages.map((a) => `${a.ageS} s`).join(' | ')} |`, `|---|${o.ages.map(() => '---|').join('')}`);
    RUNNER_TIERS.forEach((tier, i) => {
      const cols = o.ages.map((a) => {
        const t = a.models.find((m) => m.name === family)?.report.runnerOdds[i];
        return !t || t.n === 0 ? 'not published (warming)' : `${t.n} · ${pct(t.meanProb, 2)} → ${pct(t.observedRate, 2)}, AUC ${num(t.auc, 3)}`;
      });
      out.push(`| ≥ ${tier}× | ${cols.join(' | ')} |`);
    });
  }
  const ablated = o.ages.some((a) => a.models.some((m) => m.name.includes(' − ')));
  if (ablated) {
    out.push(
      '',
      'knn-v2 ablation: the feature group left out of the metric (or the logistic prior or the logistic axis taken away), and the change against full knn-v2 (Δ AUC, Δ AUPRC, Δ log loss; a drop in AUC means it helped):',
      '',
    );
    out.push(
      `| left out | ${o.ages.map((a) => `${a.ageS} s: Δ AUC | Δ AUPRC | Δ log loss`).join(' | ')} |`,
      `|---|${o.ages.map(() => '---|---|---|').join('')}`,
    );
    const names = o.ages[0]!.models.filter((m) => m.name.includes(' − ')).map((m) => m.name);
    for (const name of names) {
      const cols = o.ages.map((a) => {
        const full = a.models.find((m) => m.name === 'knn-v2')!.report;
        const r = a.models.find((m) => m.name === name)!.report;
        return [delta(r.auc, full.auc, 3), delta(r.auprc, full.auprc, 3), delta(r.logLoss, full.logLoss, 4)].join(' | ');
      });
      out.push(`| ${name.split(' − ')[1]} | ${cols.join(' | ')} |`);
    }
  }
  return out;
}

/** The `published` row's story: the rule's decisions replayed over the walk, and which version served when. */
function renderPromotion(o: BacktestOutcome): string[] {
  const p = o.promotion;
  const when = (d: Date) => d.toISOString().replace(':00.000Z', 'Z');
  const out = [
    `"${PUBLISHED}": the score a deployment configured with ${p.configured.join(', ')} (champion first) would have served: the pre-registered ` +
      `promotion rule (${SHADOW_PROMOTION_V1.id}, the deployment's own code) replayed hourly on the forward predictions resolved by each ` +
      `decision time, a promotion serving from the next refit.`,
    '',
  ];
  const decided = p.decisions.filter((d) => d.decision !== 'insufficient_data');
  const waiting = p.decisions.length - decided.length;
  out.push(
    `- ${waiting} hourly decisions \`insufficient_data\` (fewer than ${SHADOW_PROMOTION_V1.minMints} mints or ${SHADOW_PROMOTION_V1.minGraduates} graduates resolved and paired)`,
  );
  for (const d of decided)
    out.push(
      `- ${when(d.windowEnd)}: ${d.challenger} against ${d.champion}: **${d.decision}** (n ${d.n} mints, ${d.positives} graduated, upper bound of the log-loss difference ${d.upperBound?.toFixed(5) ?? '—'})`,
    );
  out.push(
    `- served: ${p.served.map((s) => `${s.version} ${s.from ? `(promoted at ${when(s.from)}) from the next refit` : 'from the start'}`).join(', then ')}`,
  );
  return out;
}

/** How often each knn-v2 fit chose which candidate, k, β and axis weight (held-out log loss at each refit). */
function renderChoices(o: BacktestOutcome): string[] {
  const out: string[] = [];
  for (const a of o.ages) {
    const choices = a.models.find((m) => m.name === 'knn-v2')?.choices ?? [];
    if (choices.length === 0) continue;
    const tally = new Map<string, number>();
    for (const c of choices) tally.set(c, (tally.get(c) ?? 0) + 1);
    const sorted = [...tally].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    out.push(`- knn-v2 fits at ${a.ageS} s (${choices.length}): ${sorted.map(([c, n]) => `${n}× ${c}`).join('; ')}; last: ${choices[choices.length - 1]}`);
  }
  return out.length ? ['', 'What the held-out search chose (candidate, k, logistic prior β, logistic axis weight):', '', ...out] : [];
}

function row(ageS: number, name: string, r: AgeReport): string {
  const bands = r.bands.map((b) => `${pct(b.precision)} (${b.n})`);
  return `| ${ageS} s | ${name} | ${r.predictions} | ${pct(r.baseRate, 2)} | ${num(r.auc, 3)} | ${num(r.rawAuc, 3)} | ${num(r.auprc, 3)} | ${num(r.logLoss, 4)} | ${num(r.ece, 4)} | ${bands.join(' | ')} |`;
}

const delta = (x: number | null, ref: number | null, digits: number) =>
  x === null || ref === null ? '—' : `${x - ref >= 0 ? '+' : ''}${(x - ref).toFixed(digits)}`;
const num = (x: number | null, digits: number) => (x === null ? '—' : x.toFixed(digits));
const pct = (x: number | null, digits = 0) => (x === null ? '—' : `${(x * 100).toFixed(digits)}%`);
