import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MultiBar, Presets } from 'cli-progress';
import { createBackfillStore } from '../db/history/backfill-store';
import { parseBackfillRange } from '../domain/history/backfill-range';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { runBackfill } from './backtest/backfill-run';
import { DEFAULT_TIMING } from '../workflows/mint/mint-lifecycle-contract';
import { openDataset, parseDatasetSpec } from './backtest/launch-datasets';
import { renderBacktest } from './backtest/report-table';
import { runBacktest, type BacktestOutcome, type ProgressSink } from './backtest/run-backtest';
import { asDb } from '../db/knex-handle';

/**
 * `npm run backtest -- <dataset> [--refit-every-s N] [--corpus-limit N] [--min-corpus N] [--ablation] [--write <file.jsonl>]`
 *
 * Walk-forward evaluation of grad_prob on recorded or simulated data (see scripts/backtest/launch-datasets.ts
 * for the datasets): knn-v1, knn-v2 and two reference models on the same walk; `--ablation` adds knn-v2 with
 * each feature group left out; `--write` writes every forward prediction of every model, one JSON object a line
 * (model, mint, age_s, observed_at, prob, raw, graduated, resolved_at, fitted_at, peak_mult_from_call; `published` rows are
 * the served version's, so the promotion replay can be recomputed too), so anyone can recompute the figures. Refit period and corpus size default to this deployment's MODEL_REFIT_EVERY_S and
 * CORPUS_LIMIT; the label horizon is the lifecycle's. Prints a Markdown report on stdout, progress on stderr.
 */
const root = path.resolve(__dirname, '..');

async function main() {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = Number(args[i + 1]);
    if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} needs a positive integer`);
    args.splice(i, 2);
    return v;
  };
  const bool = (name: string) => {
    const i = args.indexOf(name);
    if (i >= 0) args.splice(i, 1);
    return i >= 0;
  };
  const text = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    if (!v) throw new Error(`${name} needs a value`);
    args.splice(i, 2);
    return v;
  };
  const ablation = bool('--ablation');
  const writeTo = text('--write');
  const cfg = loadConfig();
  const settings = {
    horizonS: DEFAULT_TIMING.resolveAfterS,
    refitEveryS: flag('--refit-every-s') ?? cfg.mint.modelRefitEveryS,
    corpusLimit: flag('--corpus-limit') ?? cfg.mint.corpusLimit,
    minCorpus: flag('--min-corpus') ?? 1,
    ablation,
    // The `published` row replays the promotion rule over this deployment's configured versions.
    configured: [cfg.mint.champion, ...cfg.mint.challengers],
  };
  if (args.length !== 1)
    throw new Error(
      'usage: npm run backtest -- <simulator[:seed[:hours]] | replay:<file.jsonl> | captures[:<dir>] | backfill:<from>..<to>> [--refit-every-s N] [--corpus-limit N] [--min-corpus N] [--ablation] [--write <file.jsonl>]',
    );
  const spec = parseDatasetSpec(args[0]!, path.resolve(root, '..', 'shared', 'data'));
  const db = spec.kind === 'backfill' ? asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), 2)) : null;
  if (spec.kind === 'backfill') {
    // The range is read from the chain first (or joined, or found complete), then replayed from Postgres.
    Object.assign(spec, parseBackfillRange(spec.range, Date.now(), cfg.history.backfill.lagS));
    await runBackfill(cfg, db!, spec.fromMs!, spec.toMs!);
  }
  const ds = openDataset(spec, {}, db ? (from, to) => createBackfillStore(db).storedEvents(new Date(from), new Date(to)) : undefined);

  const started = performance.now();
  const bars = progressBars();
  const outcome = await runBacktest(ds, settings, bars).finally(() => bars.stop());
  await db?.destroy();
  console.log(renderBacktest(outcome));
  if (writeTo) writePredictions(writeTo, outcome);
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version})`);
}

/** Written synchronously: main() ends in process.exit, which would cut an open stream short. */
function writePredictions(file: string, o: BacktestOutcome): void {
  const lines: string[] = [];
  for (const a of o.ages)
    for (const m of a.models)
      for (const p of m.predictions)
        lines.push(
          JSON.stringify({
            model: m.name,
            model_version: p.modelVersion,
            mint: p.mint,
            age_s: a.ageS,
            observed_at: p.observedAt.toISOString(),
            prob: p.prob,
            raw: p.raw,
            graduated: p.graduated,
            resolved_at: p.resolvedAt.toISOString(),
            fitted_at: p.fittedAt.toISOString(),
            peak_mult_from_call: p.peakMultFromCall,
          }),
        );
  fs.writeFileSync(file, lines.length ? lines.join('\n') + '\n' : '');
  console.error(`wrote ${lines.length} forward predictions to ${file}`);
}

function progressBars(): ProgressSink & { stop(): void } {
  const bars = new MultiBar(
    { stream: process.stderr, hideCursor: true, format: ' {bar} {percentage}% | {phase} {note}', clearOnComplete: false },
    Presets.shades_classic,
  );
  let bar: ReturnType<MultiBar['create']> | null = null;
  let phase = '';
  return {
    phase(name, total) {
      phase = name;
      bar = bars.create(total, 0, { phase, note: '' });
    },
    update(value, note) {
      bar?.update(value, { phase, note: note ?? '' });
    },
    done() {
      bar?.update(bar.getTotal());
      bar = null;
    },
    stop() {
      bars.stop();
    },
  };
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
