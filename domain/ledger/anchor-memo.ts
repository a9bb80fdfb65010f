import { isDigestHex } from '../digest/ledger-digest';
import { isUtcHourStart } from './ledger-hour';
import { TRACK_NAME_PATTERN } from './ledger-tracks';

/**
 * The SPL Memo text that anchors a commit's root on Solana:
 *
 *   lpapi:ledger:v1:<track>:<hour>:<root>      e.g. lpapi:ledger:v1:grad_prob:2026-11-23T14Z:<64 hex>
 *
 * `<hour>` is the commit hour's start in ISO-8601 reduced precision (`YYYY-MM-DDTHHZ`: no colons, so the text
 * splits on `:` unambiguously), `<root>` the merkle root in lowercase hex. ASCII only, 105 bytes for the
 * grad_prob track, well under the memo program's limit. The transaction's block time then proves the root
 * existed by that time; `v1` versions this text, not the leaves.
 */
export const ANCHOR_MEMO_PREFIX = 'lpapi:ledger:v1:';
const MEMO_PATTERN = /^lpapi:ledger:v1:([a-z][a-z0-9_]{0,31}):(\d{4})-(\d{2})-(\d{2})T(\d{2})Z:([0-9a-f]{64})$/;

export type AnchoredRoot = { track: string; hourStart: Date; rootHex: string };

export function anchorMemo(a: AnchoredRoot): string {
  if (!TRACK_NAME_PATTERN.test(a.track)) throw new RangeError(`bad track name ${a.track}`);
  if (!isUtcHourStart(a.hourStart)) throw new RangeError('an anchored hour starts on a whole UTC hour');
  if (!isDigestHex(a.rootHex)) throw new RangeError('root must be 64 lowercase hex digits');
  const hour = a.hourStart.toISOString().slice(0, 13);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}$/.test(hour)) throw new RangeError('hour outside years 0000–9999');
  return `${ANCHOR_MEMO_PREFIX}${a.track}:${hour}Z:${a.rootHex}`;
}

/** The anchored root a memo names, or null for any other text (other services' memos, malformed ones). */
export function parseAnchorMemo(memo: string): AnchoredRoot | null {
  const m = MEMO_PATTERN.exec(memo);
  if (!m) return null;
  const [, track, y, mo, d, h, rootHex] = m as unknown as [string, string, string, string, string, string, string];
  const hourStart = new Date(`${y}-${mo}-${d}T${h}:00:00.000Z`);
  // A real calendar hour only: rejects 2026-02-30 or hour 24, which Date would roll over.
  if (!Number.isFinite(hourStart.getTime()) || hourStart.toISOString().slice(0, 13) !== `${y}-${mo}-${d}T${h}`) return null;
  return { track, hourStart, rootHex };
}
