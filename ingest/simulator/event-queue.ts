/**
 * Min-heap of scheduled simulator actions by (time, insertion sequence). The sequence breaks ties so two
 * actions at the same millisecond always run in the same order: part of a seed reproducing a market exactly.
 */
export class EventQueue<T> {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly items: T[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  peekTime(): number | null {
    return this.items.length === 0 ? null : this.times[0]!;
  }

  push(atMs: number, item: T): void {
    this.times.push(atMs);
    this.seqs.push(this.seq++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  pop(): { atMs: number; item: T } | null {
    if (this.items.length === 0) return null;
    const top = { atMs: this.times[0]!, item: this.items[0]! };
    const last = this.items.length - 1;
    this.move(last, 0);
    this.times.pop();
    this.seqs.pop();
    this.items.pop();
    if (this.items.length > 0) this.down(0);
    return top;
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a]!;
    const tb = this.times[b]!;
    return ta < tb || (ta === tb && this.seqs[a]! < this.seqs[b]!);
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b]!, this.times[a]!];
    [this.seqs[a], this.seqs[b]] = [this.seqs[b]!, this.seqs[a]!];
    [this.items[a], this.items[b]] = [this.items[b]!, this.items[a]!];
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from]!;
    this.seqs[to] = this.seqs[from]!;
    this.items[to] = this.items[from]!;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
