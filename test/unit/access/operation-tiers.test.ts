import fs from 'node:fs';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { createLiveDelayLine } from '../../../domain/live/live-delay-line';
import { liveDelayFor, minTierFor, OPERATION_MIN_TIER } from '../../../domain/access/operation-tiers';

type Op = { operationId: string; security?: unknown[]; 'x-min-tier'?: string };
const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, Op>> };
const ops = Object.values(doc.paths)
  .flatMap((p) => Object.values(p))
  .filter((o): o is Op => typeof o === 'object' && o !== null && 'operationId' in o);

describe('operation tiers', () => {
  it('every keyed operation in openapi.yaml has a tier rule, documented as x-min-tier with the same value', () => {
    const keyed = ops.filter((o) => o.security?.length);
    expect(keyed.map((o) => o.operationId).sort()).toEqual(Object.keys(OPERATION_MIN_TIER).sort());
    for (const o of keyed) expect([o.operationId, o['x-min-tier']]).toEqual([o.operationId, OPERATION_MIN_TIER[o.operationId]]);
    for (const o of ops.filter((x) => !x.security?.length)) expect(o['x-min-tier']).toBeUndefined();
  });

  it('an operation missing from the table is Enterprise-only, and only Free live data is delayed', () => {
    expect(minTierFor('somethingNew')).toBe('enterprise');
    expect(minTierFor(undefined)).toBe('enterprise');
    expect([liveDelayFor('free'), liveDelayFor('builder'), liveDelayFor('pro'), liveDelayFor('enterprise')]).toEqual([300, 0, 0, 0]);
  });
});

describe('live delay line', () => {
  it('samples every 15 s and releases each sample once it is 300 s old, newest first when several are due', () => {
    const line = createLiveDelayLine(300, 15);
    const t0 = Date.parse('2026-11-23T00:00:00Z');
    let built = 0;
    const released: { sampledAt: number; at: number }[] = [];
    for (let s = 0; s <= 400; s += 2) {
      const due = line.offer(new Date(t0 + s * 1000), () => (built++, { count: 0, body: String(s) }));
      if (due) released.push({ sampledAt: Number(due.body), at: s });
    }
    // Built only when sampled: at 0, 16, 32, … (the first refresh at least 15 s after the last sample).
    expect(built).toBe(26);
    expect(released.map((r) => r.sampledAt)).toEqual([0, 16, 32, 48, 64, 80, 96]);
    for (const r of released) expect(r.at - r.sampledAt).toBe(300);
  });
});
