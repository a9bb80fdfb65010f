import { resumeAnchor } from '../../../db/mint/launch-event-store';

describe('resumeAnchor: where a restarted feed backfills from', () => {
  it('is nothing when nothing was stored', () => expect(resumeAnchor([])).toBeNull());
  it('is the last stored transaction of the slot before the newest one', () => {
    const txs = [
      { signature: 'a', slot: 10 },
      { signature: 'b', slot: 12 },
      { signature: 'c', slot: 11 },
      { signature: 'd', slot: 12 },
    ];
    // Slot 12 may be stored only in part, so it is read again from slot 11's last transaction on.
    expect(resumeAnchor(txs)).toBe('c');
  });
  it('falls back to the newest slot when it is the only one', () => {
    expect(resumeAnchor([{ signature: 'x', slot: 5 }])).toBe('x');
  });
});
