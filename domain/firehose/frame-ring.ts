import type { FrameFacts } from './firehose-topics';

/**
 * A frame as the hub keeps it: its seq, the bytes every client is sent, the one key it is for (null: everyone),
 * and the facts topic subscriptions look at (extracted once, for every client).
 */
export type RingFrame = { seq: number; bytes: Buffer; ownerKeyId: number | null; facts: FrameFacts };

/** Whether a connection of `keyId` (undefined: no key) is sent `frame`: another key's alert fire never. */
export const visibleTo = (frame: { ownerKeyId: number | null }, keyId: number | undefined): boolean => frame.ownerKeyId === null || frame.ownerKeyId === keyId;

/**
 * The newest `capacity` frames of this process, in seq order, for resumes that need no database read. `floor` is
 * the seq above which the ring holds every event: it starts at the hub's starting head and rises as old frames
 * are evicted.
 */
export class FrameRing {
  private readonly frames: (RingFrame | undefined)[];
  private start = 0;
  private size = 0;
  floor: number;

  constructor(
    readonly capacity: number,
    startSeq: number,
  ) {
    if (capacity < 1) throw new Error('a ring holds at least one frame');
    this.frames = new Array(capacity);
    this.floor = startSeq;
  }

  push(f: RingFrame): void {
    if (this.size === this.capacity) {
      this.floor = this.frames[this.start]!.seq;
      this.frames[this.start] = f;
      this.start = (this.start + 1) % this.capacity;
    } else {
      this.frames[(this.start + this.size) % this.capacity] = f;
      this.size++;
    }
  }

  /** Frames with seq > `seq`, oldest first (all of them exist when `seq >= floor`). */
  after(seq: number): RingFrame[] {
    const out: RingFrame[] = [];
    // Binary search over the ring's logical order for the first frame above seq.
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.size; i++) out.push(this.at(i));
    return out;
  }

  get length(): number {
    return this.size;
  }

  private at(i: number): RingFrame {
    return this.frames[(this.start + i) % this.capacity]!;
  }
}
