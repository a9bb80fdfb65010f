import type { RegisteredDocument } from '../../db/verdict/preregistration-document';
import type { VerdictStore } from '../../db/verdict/verdict-store';
import { canonicalJson, type CanonicalValue } from '../../domain/digest/canonical-json';
import { evaluateVerdict } from '../../domain/verdict/evaluate-verdict';
import type { Preregistration } from '../../domain/verdict/preregistration';
import { pendingStatus } from '../../domain/verdict/verdict-status';
import type { VerdictRunResult } from '../../workflows/verdict/verdict-contract';

export type VerdictDeps = { verdictStore: VerdictStore; registration: Preregistration; document: () => RegisteredDocument; now: () => Date };

export function createVerdictActivities(d: VerdictDeps) {
  return {
    /**
     * Evaluates the registration over the stored crosses and benchmark as of now. Before the lock it replaces the
     * status row (what is missing); once decidable it locks the one immutable verdict row, which the audit ledger's
     * hourly commit then commits on the `verdict` track (db/ledger/verdict-row-source.ts). A locked verdict is final:
     * later runs return it without evaluating.
     */
    async evaluateRegisteredVerdict(): Promise<VerdictRunResult> {
      const p = d.registration;
      const done = await d.verdictStore.locked(p.id);
      const lockedResult = (v: NonNullable<typeof done>, created: boolean): VerdictRunResult => ({
        state: 'locked',
        preregistrationId: p.id,
        verdictId: v.id,
        branch: v.branch,
        evaluationSha256: v.evaluationSha256,
        created,
      });
      if (done) return lockedResult(done, false);
      const now = d.now();
      const [crosses, benchmark] = await Promise.all([d.verdictStore.crosses(p), d.verdictStore.benchmarkHours(p)]);
      const s = evaluateVerdict({ prereg: p, registrationSha256: d.document().sha256, crosses, benchmark, asOfMs: now.getTime() });
      if (s.state === 'undecidable') {
        const status = pendingStatus(s);
        await d.verdictStore.writeStatus(p.id, { evaluatedAt: now, status });
        return { state: 'pending', preregistrationId: p.id, missing: status.missing.map((m) => String(m.kind)) };
      }
      const { verdict, created } = await d.verdictStore.lock({
        preregistrationId: p.id,
        preregistrationSha256: s.evaluation.preregistration_sha256,
        branch: s.branch,
        verdict: s.evaluation.verdict,
        windowStart: new Date(s.windowStartMs),
        windowEnd: new Date(s.windowEndMs),
        evaluation: s.evaluation,
        evaluationCanonical: canonicalJson(s.evaluation as unknown as CanonicalValue),
        evaluationSha256: s.evaluationSha256,
        lockedAt: now,
      });
      return lockedResult(verdict, created);
    },
  };
}
export type VerdictActivities = ReturnType<typeof createVerdictActivities>;
