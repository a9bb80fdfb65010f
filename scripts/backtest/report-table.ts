import { RUNNER_TIERS } from '../../domain/scoring/runner-model';
import { renderComparison } from './comparison-table';
import type { BacktestOutcome } from './run-backtest';

/** The backtest as Markdown: what the data held, then one row per scoring age, then per-cell calibration. */
export function renderBacktest(o: BacktestOutcome): string {
  const c = o.counts;
  const out: string[] = [];
  const when = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');
  out.push(`## backtest: ${o.dataset}`, '');
  out.push(
    `- data: ${o.span ? `${when(o.span.fromMs)} → ${when(o.span.toMs)} (${hours(o.span.toMs - o.span.fromMs)})` : 'no events'}; ${c.events} events, ` +
      `${c.launches} launches (${c.mayhemSkipped} mayhem, never scored), ${c.graduationsSeen} graduations seen`,
  );
  out.push(
    `- labels (${o.settings.horizonS / 3600} h horizon, domain/mint/outcome-labels.ts): ${o.resolved} launches resolved, ${o.unresolved} unresolved ` +
      `(their horizon lies past the end of the data; no label is guessed)`,
  );
  const skipped = [
    [c.orphanTrades, 'trades of mints created before the data'],
    [c.duplicateTrades, 'duplicate trades'],
    [c.lateEvents, 'events after their mint resolved'],
    [
      o.rejected.count,
      `lines/frames the decoders refused${
        o.rejected.count
          ? ` (${[...o.rejected.reasons]
              .slice(0, 3)
              .map(([r, k]) => `${k}× ${r}`)
              .join('; ')})`
          : ''
      }`,
    ],
  ] as const;
  out.push(`- skipped: ${skipped.map(([k, what]) => `${k} ${what}`).join(', ')}`);
  out.push(
    `- walk-forward: refit every ${o.settings.refitEveryS} s on the newest ≤ ${o.settings.corpusLimit} rows resolved by then, calibrator on the corpus' latest 30% ` +
      `(grad-prob-model.ts, as in production); windows before the corpus reaches ${o.settings.minCorpus} rows are warm-up`,
    '',
  );

  out.push(
    '| age | predictions | graduated | base rate | AUC | Brier | Brier of base rate | ECE (10 bins) | ≥ 0.5: precision (n) | ≥ 0.7: precision (n) | ≥ 0.9: precision (n) |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const a of o.ages) {
    const r = a.report;
    const bands = r.bands.map((b) => `${pct(b.precision)} (${b.n})`);
    out.push(
      `| ${a.ageS} s | ${r.predictions} | ${r.graduated} | ${pct(r.baseRate, 2)} | ${num(r.auc, 3)} | ${num(r.brier, 4)} | ${num(r.brierOfBaseRate, 4)} | ${num(r.ece, 4)} | ${bands.join(' | ')} |`,
    );
  }
  out.push('');
  for (const a of o.ages) {
    const window = a.firstPredictionAt && a.lastPredictionAt ? `${when(a.firstPredictionAt.getTime())} → ${when(a.lastPredictionAt.getTime())}` : 'none';
    out.push(
      `- ${a.ageS} s: ${a.observations} resolved observations, ${a.warmup} in warm-up, ${a.report.predictions} predicted forward (${window}) by ${a.fits} fits`,
    );
  }
  const empty = o.ages.every((a) => a.report.predictions === 0);
  if (empty) out.push('', `**No forward prediction could be evaluated.** ${whyEmpty(o)}`);
  if (!empty) {
    out.push('', 'Calibration per confidence cell (n · mean predicted → observed rate):', '');
    out.push(`| cell | ${o.ages.map((a) => `${a.ageS} s`).join(' | ')} |`, `|---|${o.ages.map(() => '---|').join('')}`);
    const cells = o.ages[0]!.report.calibration;
    cells.forEach((cell, i) => {
      const cols = o.ages.map((a) => {
        const x = a.report.calibration[i]!;
        return x.n === 0 ? '0' : `${x.n} · ${pct(x.meanPredicted, 1)} → ${pct(x.actualRate, 1)}`;
      });
      out.push(`| [${cell.band.lo}, ${cell.band.hi}${i === cells.length - 1 ? ']' : ')'} | ${cols.join(' | ')} |`);
    });
    out.push(
      '',
      `Observed from-call runner rates (price reached N × the price at the call within the horizon): ` +
        o.ages.map((a) => `${a.ageS} s: ${a.report.runnerRatesFromCall.map((t) => `≥${t.tier}× ${pct(t.rate, 1)}`).join(', ')}`).join('; ') +
        ` (tiers ${RUNNER_TIERS.join('/')}; curve prices only, no DEX prices after graduation).`,
    );
  }
  if (!empty) out.push('', ...renderRunnerOdds(o), ...renderComparison(o));
  return out.join('\n');
}

/** runner_prob_{N}x_from_now against what the price did after the call, per age and tier. */
function renderRunnerOdds(o: BacktestOutcome): string[] {
  const out = ['Runner odds from the call (runner-model.ts, fitted per window with grad_prob): n · mean predicted → observed, AUC, Brier, ECE', ''];
  out.push(`| tier | ${o.ages.map((a) => `${a.ageS} s`).join(' | ')} |`, `|---|${o.ages.map(() => '---|').join('')}`);
  RUNNER_TIERS.forEach((tier, i) => {
    const cols = o.ages.map((a) => {
      const t = a.report.runnerOdds[i]!;
      return t.n === 0
        ? 'not published (model warming)'
        : `${t.n} · ${pct(t.meanProb, 2)} → ${pct(t.observedRate, 2)}, AUC ${num(t.auc, 3)}, Brier ${num(t.brier, 4)}, ECE ${num(t.ece, 4)}`;
    });
    out.push(`| ≥ ${tier}× | ${cols.join(' | ')} |`);
  });
  return out;
}

function whyEmpty(o: BacktestOutcome): string {
  const spanH = o.span ? (o.span.toMs - o.span.fromMs) / 3_600_000 : 0;
  if (o.resolved === 0) {
    return `No launch in this data reached its ${o.settings.horizonS / 3600} h label horizon (the data spans ${hours(spanH * 3_600_000)}), so there are no outcomes to score against, and none are invented.`;
  }
  return `Every resolved observation was made before any label had resolved (warm-up): a forward model needs data spanning more than twice the ${o.settings.horizonS / 3600} h horizon.`;
}

const hours = (ms: number) => (ms >= 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} h` : `${(ms / 60_000).toFixed(1)} min`);
const num = (x: number | null, digits: number) => (x === null ? '—' : x.toFixed(digits));
const pct = (x: number | null, digits = 0) => (x === null ? '—' : `${(x * 100).toFixed(digits)}%`);
