/**
 * A Map that forgets its oldest entries past `capacity`: for "have I seen this signature recently" questions whose
 * answer only matters for a while, without letting a long-running feed grow without bound.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!(capacity > 0)) throw new Error('capacity must be positive');
  }

  get size(): number {
    return this.map.size;
  }

  has(k: K): boolean {
    return this.map.has(k);
  }

  get(k: K): V | undefined {
    return this.map.get(k);
  }

  set(k: K, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
}
