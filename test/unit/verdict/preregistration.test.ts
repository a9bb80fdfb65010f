import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { COMPOSITE_TIERS_V1, preregistrationFromJson, preregistrationSha256, type PreregistrationJson } from '../../../domain/verdict/preregistration';
import { tierRules } from '../../../domain/signals/tier-rules';
import { lockPoint, stepAfter } from '../../../domain/verdict/verdict-window';
import { ROOT } from '../../support/test-env';
import { benchmark, crosses, DAY, HOUR, P, T0 } from './verdict-fixtures';

const DOC = path.join(ROOT, 'docs', 'preregistration', 'composite-tiers-v1.md');

function frozenBlock(markdown: string): PreregistrationJson {
  const section = markdown.slice(markdown.indexOf('## 6. Frozen parameters'));
  const m = /```json\n([\s\S]*?)\n```/.exec(section);
  if (!m) throw new Error('section 6 has no json block');
  return JSON.parse(m[1]!) as PreregistrationJson;
}

describe('the pre-registration document and the evaluator agree', () => {
  const bytes = fs.readFileSync(DOC);

  it('runs with exactly the parameters the document freezes', () => {
    expect(preregistrationFromJson(frozenBlock(bytes.toString('utf8')))).toEqual(COMPOSITE_TIERS_V1);
  });

  it('registers before T0, which falls on a whole hour, with the deadline 120 days later', () => {
    expect(new Date(P.registeredAtMs).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(new Date(P.t0Ms).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect((P.deadlineMs - P.t0Ms) / DAY).toBe(120);
    expect(tierRules(P.tierRulesVersion)).toMatchObject({ actMinGp60: 0.25, watchMinGp60: 0.1 });
    expect(() => preregistrationFromJson({ ...frozenBlock(bytes.toString('utf8')), t0: '2026-11-01T00:00:00Z' })).toThrow(RangeError);
    expect(() => preregistrationFromJson({ ...frozenBlock(bytes.toString('utf8')), t0: '2026-12-01T00:30:00Z' })).toThrow(RangeError);
  });

  it('hashes the document’s exact bytes', () => {
    expect(preregistrationSha256(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    const edited = Buffer.concat([bytes, Buffer.from(' ')]);
    expect(preregistrationSha256(edited)).not.toBe(preregistrationSha256(bytes));
  });

  it('is published: the README’s pre-registered claims state the SHA-256 of the document as it is in the repository', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const claims = readme.slice(readme.indexOf('## Pre-registered claims'));
    const section = claims.slice(claims.indexOf('- **Verdict**'));
    expect(/SHA-256\s+`([0-9a-f]{64})`/.exec(section)?.[1]).toBe(preregistrationSha256(bytes));
  });
});

describe('the lock point', () => {
  const all = () => [...crosses('ACT', 50, 0, T0 + HOUR, HOUR), ...crosses('WATCH', 50, 0, T0 + HOUR, HOUR), ...crosses('SCOUT', 50, 0, T0 + HOUR, HOUR)];

  it('is T0 + 14 days when counts come earlier', () => {
    expect(lockPoint(all(), benchmark(200), P)).toBe(T0 + 14 * DAY);
  });

  it('is the hour boundary after the slowest tier’s 50th cross', () => {
    // The 50th SCOUT cross exactly on 20 days + 5 h: the window must include it, so it ends an hour later.
    const c = [...all().filter((x) => x.tier !== 'SCOUT'), ...crosses('SCOUT', 50, 0, T0 + 20 * DAY + 5 * HOUR - 49 * HOUR, HOUR)];
    expect(lockPoint(c, benchmark(200), P)).toBe(T0 + 20 * DAY + 6 * HOUR);
    expect(stepAfter(T0 + 5 * HOUR - 1, 3600)).toBe(T0 + 5 * HOUR);
    expect(stepAfter(T0 + 5 * HOUR, 3600)).toBe(T0 + 6 * HOUR);
  });

  it('is the hour after the benchmark reaches 10,000 scored mints when that is last', () => {
    // 10 mints an hour: the 1,000th hour brings the 10,000th.
    expect(lockPoint(all(), benchmark(1_200, 10, 0), P)).toBe(T0 + 1_000 * HOUR);
    expect(lockPoint(all(), benchmark(999, 10, 0), P)).toBeNull();
  });

  it('does not exist without 50 crosses in every tier', () => {
    expect(lockPoint(all().slice(1), benchmark(200), P)).toBeNull();
  });
});
