import { commitRecordDigestHex, type CommitRecord } from './commit-record';
import { DIGEST_BYTES, digestToHex } from '../digest/ledger-digest';
import { compareLeafOrder, isUtcHourStart, utcHourEnd } from './ledger-hour';
import type { LedgerLeaf } from './leaf-fields';
import { merkleLevels } from './merkle-tree';

/** A built commit as it is stored: the record, its digest, every tree level, and the leaf ids in tree order. */
export type BuiltHourCommit = { record: CommitRecord; digestHex: string; levels: Uint8Array[]; ids: number[] };

/**
 * The commit of one track's hour from its leaves fed one at a time in tree order (as a store streams them
 * from a cursor): only the 32-byte hashes and the ids are kept, never the payloads, so a 200,000-leaf hour
 * holds 6.4 MB of hashes rather than 100 MB of text. Gives the same record and levels as `planHourCommit`.
 *
 * Refuses, as that does, leaves of another track or version, outside the hour, or out of tree order (which
 * also refuses an id repeated at the same moment).
 */
export class HourCommitBuilder {
  private hashes: Uint8Array;
  private readonly ids: number[] = [];
  private last: LedgerLeaf | null = null;
  private readonly startMs: number;
  private readonly endMs: number;

  constructor(
    readonly track: string,
    readonly leafVersion: number,
    readonly hourStart: Date,
    expectedCount = 1024,
  ) {
    if (!isUtcHourStart(hourStart)) throw new RangeError('a commit hour starts on a whole UTC hour');
    this.startMs = hourStart.getTime();
    this.endMs = utcHourEnd(hourStart).getTime();
    this.hashes = new Uint8Array(Math.max(1, expectedCount) * DIGEST_BYTES);
  }

  get count(): number {
    return this.ids.length;
  }

  add(leaf: LedgerLeaf): void {
    if (leaf.track !== this.track || leaf.leafVersion !== this.leafVersion) {
      throw new RangeError(`leaf ${leaf.id} is ${leaf.track} v${leaf.leafVersion}, not ${this.track} v${this.leafVersion}`);
    }
    const t = leaf.predictedAt.getTime();
    if (!(t >= this.startMs && t < this.endMs)) throw new RangeError(`leaf ${leaf.id} is outside the hour ${this.hourStart.toISOString()}`);
    if (this.last && compareLeafOrder(this.last, leaf) >= 0) throw new RangeError(`leaf ${leaf.id} comes after leaf ${this.last.id} in tree order`);
    if (leaf.hash.length !== DIGEST_BYTES) throw new RangeError(`leaf ${leaf.id} hash is not 32 bytes`);
    const at = this.ids.length * DIGEST_BYTES;
    if (at + DIGEST_BYTES > this.hashes.length) {
      const grown = new Uint8Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes.set(leaf.hash, at);
    this.ids.push(leaf.id);
    this.last = leaf;
  }

  /** The commit chained to the track's previous commit; null for an empty hour (which has no commit). */
  finish(previous: Pick<CommitRecord, 'track' | 'hourStart' | 'rootHex'> | null): BuiltHourCommit | null {
    const n = this.ids.length;
    if (n === 0) return null;
    if (previous && (previous.track !== this.track || previous.hourStart.getTime() >= this.startMs)) {
      throw new RangeError('the previous commit must be an earlier hour of the same track');
    }
    const levels = merkleLevels(this.hashes.slice(0, n * DIGEST_BYTES));
    const record: CommitRecord = {
      track: this.track,
      hourStart: new Date(this.startMs),
      leafVersion: this.leafVersion,
      leafCount: n,
      firstId: this.ids[0]!,
      lastId: this.ids[n - 1]!,
      rootHex: digestToHex(levels[levels.length - 1]!),
      prevRootHex: previous?.rootHex ?? null,
    };
    return { record, digestHex: commitRecordDigestHex(record), levels, ids: [...this.ids] };
  }
}
