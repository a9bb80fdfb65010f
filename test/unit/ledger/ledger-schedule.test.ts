import { auditTrailStatement } from '../../../domain/ledger/audit-trail-statement';
import { commitExpectedBy, compactHour, sealHorizon } from '../../../domain/ledger/ledger-schedule';

describe('ledger schedule', () => {
  it('seals the hours that closed at least the grace period ago', () => {
    expect(sealHorizon(new Date('2026-11-24T03:09:59Z'), 600).toISOString()).toBe('2026-11-24T02:00:00.000Z');
    expect(sealHorizon(new Date('2026-11-24T03:10:00Z'), 600).toISOString()).toBe('2026-11-24T03:00:00.000Z');
  });

  it('expects a commit by the end of the hour plus the grace and one scheduler period', () => {
    expect(commitExpectedBy(new Date('2026-11-24T02:59:59.999Z'), 600, 60).toISOString()).toBe('2026-11-24T03:11:00.000Z');
    expect(commitExpectedBy(new Date('2026-11-24T03:00:00.000Z'), 600, 60).toISOString()).toBe('2026-11-24T04:11:00.000Z');
  });

  it('writes the hour without colons for workflow ids and memos', () => {
    expect(compactHour(new Date('2026-11-24T03:00:00Z'))).toBe('2026-11-24T03Z');
  });
});

describe('auditTrailStatement (/api/scope)', () => {
  it('claims commits only for tracks being committed, and anchoring only when configured', () => {
    const s = auditTrailStatement({
      liveTracks: ['grad_prob'],
      facts: { grad_prob: { commits: 3, anchored: 0, latest: new Date('2026-11-24T02:00:00Z') } },
      graceS: 600,
      anchoring: false,
    });
    expect(s.tracks.map((t) => [t.track, t.status, t.commits])).toEqual([
      ['grad_prob', 'live', 3],
      ['composite', 'planned', 0],
      ['perps', 'planned', 0],
      ['verdict', 'planned', 0],
    ]);
    expect(s.summary).toMatch(/^hourly merkle commits.*grad_prob prediction.*10 min after it closes; not committed yet: composite, perps, verdict$/);
    expect(s.summary).not.toMatch(/Solana/);
    expect(s.anchoring).toBe('off');
    expect(s.tracks[0]!.latest_hour_start).toBe('2026-11-24T02:00:00.000Z');
    const anchored = auditTrailStatement({ liveTracks: ['grad_prob'], facts: {}, graceS: 600, anchoring: true });
    expect(anchored.summary).toMatch(/anchored in a Solana memo transaction/);
    expect(auditTrailStatement({ liveTracks: [], facts: {}, graceS: 600, anchoring: false }).summary).toMatch(/^no ledger track is committed yet/);
  });
});
