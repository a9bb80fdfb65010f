import { VERDICT_LEAF_V1 } from '../../domain/ledger/verdict-leaf';
import { defineLedgerRowSource } from './ledger-row-source';

type VerdictRow = {
  id: string | number;
  locked_at: Date;
  preregistration_id: string;
  preregistration_sha256: string;
  branch: string;
  verdict: string;
  window_start: Date;
  window_end: Date;
  evaluation_sha256: string;
};

/** verdict: every locked pre-registered verdict (one row per registration, immutable), by `locked_at`. */
export const VERDICT_ROW_SOURCE = defineLedgerRowSource<VerdictRow>({
  track: 'verdict',
  leafVersion: VERDICT_LEAF_V1.version,
  table: 'verdicts',
  timeColumn: 'locked_at',
  columns: ['id', 'locked_at', 'preregistration_id', 'preregistration_sha256', 'branch', 'verdict', 'window_start', 'window_end', 'evaluation_sha256'],
  rowName: 'verdict',
  leaf: (r) =>
    VERDICT_LEAF_V1.build({
      id: Number(r.id),
      lockedAt: r.locked_at,
      preregistrationId: r.preregistration_id,
      preregistrationSha256: r.preregistration_sha256,
      branch: r.branch,
      verdict: r.verdict,
      windowStart: r.window_start,
      windowEnd: r.window_end,
      evaluationSha256: r.evaluation_sha256,
    }),
});
