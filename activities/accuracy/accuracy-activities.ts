import type { AccuracyStore } from '../../db/accuracy/accuracy-store';
import type { GateStore } from '../../db/accuracy/gate-store';
import type { RunnerNowStore } from '../../db/mint/runner-now-store';
import { buildHeadline, CALL_MIN_PROB, headlineReadFrom, type TrajectoryMonth } from '../../domain/accuracy/accuracy-headline';
import { buildAccuracyReport, lastDaysBaseRate, survivalForward, sustainLabels } from '../../domain/accuracy/accuracy-report';
import { runnerFromNowAccuracy } from '../../domain/accuracy/runner-from-now-accuracy';
import { evaluateSurvivalGate, SURVIVAL_GATE } from '../../domain/accuracy/survival-gate';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';
import type { ShadowStore } from '../../db/accuracy/shadow-store';
import type { RegisteredDocument } from '../../db/verdict/preregistration-document';
import { buildShadowModelsSection } from '../../domain/accuracy/shadow-models-report';
import { SHADOW_PROMOTION_V1 } from '../../domain/accuracy/shadow-promotion';
import { shadowVersions } from '../../domain/scoring/grad-model-versions';

export type AccuracyDeps = {
  accuracyStore: AccuracyStore;
  gateStore: GateStore;
  runnerNowStore: Pick<RunnerNowStore, 'resolvedSince'>;
  shadowStore: ShadowStore;
  /** MODEL_CHAMPION then MODEL_CHALLENGERS. */
  configuredGradVersions: readonly string[];
  promotionRuleDocument: () => RegisteredDocument;
  accuracyWindowDays: number;
  now: () => Date;
};

/** Decisions of the promotion rule shown on the page, newest first. */
const SHOWN_DECISIONS = 50;

export function createAccuracyActivities(d: AccuracyDeps) {
  return {
    /**
     * Recomputes the accuracy page from the predictions table and re-evaluates the survival gate, then writes
     * both in one transaction. Idempotent: a retry recomputes the same figures from the same rows.
     */
    async recomputeAccuracy(): Promise<{ predictions: number; survivalGate: string; computedAt: string }> {
      const now = d.now();
      const since = new Date(now.getTime() - d.accuracyWindowDays * 86_400_000);
      // The headline's final months are carried from the previous report (domain/accuracy/accuracy-headline.ts).
      const previous = (await d.accuracyStore.readReport()) as { computed_at?: string; headline?: { trajectory?: TrajectoryMonth[] } } | undefined;
      const carried =
        previous?.headline?.trajectory && previous.computed_at
          ? { computedAt: new Date(previous.computed_at), trajectory: previous.headline.trajectory }
          : undefined;
      const reads = headlineReadFrom(now, carried);
      const [predictions, checkpoints, currentVersions, prevGate, calls, fromNow] = await Promise.all([
        d.accuracyStore.forwardPredictions(since, LABEL_VERSION, RUG_LABEL_VERSION),
        d.accuracyStore.checkpoints(since),
        d.accuracyStore.currentVersions(),
        d.gateStore.read(SURVIVAL_GATE.name),
        d.accuracyStore.headlineCalls(reads.callsFrom, CALL_MIN_PROB, LABEL_VERSION),
        d.runnerNowStore.resolvedSince(since, LABEL_VERSION),
      ]);
      const survivalGate = evaluateSurvivalGate(prevGate, survivalForward(predictions, sustainLabels(checkpoints)), now);
      const champion = await d.shadowStore.currentChampion(d.configuredGradVersions[0]!);
      const challengers = shadowVersions(champion, d.configuredGradVersions);
      const [modelScores, decisions] = await Promise.all([
        d.shadowStore.forwardScores([champion, ...challengers], since, now, LABEL_VERSION),
        d.shadowStore.recentDecisions(SHOWN_DECISIONS),
      ]);
      const doc = d.promotionRuleDocument();
      const headline = buildHeadline({ computedAt: now, monthsFrom: reads.monthsFrom, calls, carried: carried?.trajectory ?? [] });
      const report = {
        ...buildAccuracyReport({ computedAt: now, windowDays: d.accuracyWindowDays, predictions, checkpoints, survivalGate, currentVersions }),
        runner_from_now: runnerFromNowAccuracy(fromNow),
        headline: { ...headline, last_30d: { ...headline.last_30d, ...lastDaysBaseRate(predictions, now) } },
        shadow_models: buildShadowModelsSection({
          rule: { id: SHADOW_PROMOTION_V1.id, sha256: doc.sha256, document: doc.path },
          champion,
          challengers,
          scores: modelScores,
          decisions,
        }),
      };
      await d.accuracyStore.publish(report, { name: SURVIVAL_GATE.name, state: survivalGate });
      return { predictions: predictions.length, survivalGate: survivalGate.state, computedAt: report.computed_at };
    },
  };
}
export type AccuracyActivities = ReturnType<typeof createAccuracyActivities>;
