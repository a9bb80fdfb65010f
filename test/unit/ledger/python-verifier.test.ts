import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '../../../domain/digest/canonical-json';
import { planHourCommit } from '../../../domain/ledger/commit-chain';
import { commitRecordPayload } from '../../../domain/ledger/commit-record';
import { COMPOSITE_LEAF_V1 } from '../../../domain/ledger/composite-leaf';
import { LEDGER_TRACKS } from '../../../domain/ledger/ledger-tracks';
import { proofDocument, type ProofDocument } from '../../../domain/ledger/ledger-proof';
import { HOUR, gradProbCommit, perpsCommit, sampleComposite } from './ledger-fixtures';

/**
 * The independent verifier (Python, standard library only) must accept every proof our code serves and
 * refuse tampered ones: then the format is reproducible by anyone from docs/ledger-format.md, not only by us.
 */
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const VERIFIER = join(__dirname, '../../verifiers/verify_proof.py');
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'ledger-verifier-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function python(args: string[], input?: unknown): { status: number | null; lines: string[]; stdout: string } {
  const file = join(dir, `in-${Math.random().toString(36).slice(2)}.json`);
  if (input !== undefined) writeFileSync(file, typeof input === 'string' ? input : JSON.stringify(input));
  const r = spawnSync('python3', [VERIFIER, ...args.map((a) => (a === '@input' ? file : a))], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, lines: r.stdout.split('\n').filter((l) => l.length > 0) };
}

const allProofs = (n: number, seed: number) => {
  const commit = gradProbCommit(n, seed);
  return Array.from({ length: n }, (_, i) => proofDocument(commit, i));
};

describe('the Python verifier', () => {
  it('accepts every proof of single-leaf, odd-sized (3, 5, 7) and 300-leaf hours, and of the composite and perps tracks', () => {
    const composite = planHourCommit({
      track: 'composite',
      leafVersion: 1,
      hourStart: HOUR,
      leaves: [1, 2, 3, 4, 5].map((k) => COMPOSITE_LEAF_V1.build(sampleComposite({ id: k, predictedAt: new Date(HOUR.getTime() + k * 1000) }))),
      previous: null,
    })!;
    const proofs = [
      ...allProofs(1, 11),
      ...allProofs(3, 13),
      ...allProofs(5, 15),
      ...allProofs(7, 17),
      ...allProofs(300, 19),
      ...[0, 4].map((i) => proofDocument(composite, i)),
      ...[0, 1, 2, 3, 4].map((i) => proofDocument(perpsCommit(5), i)),
    ];
    const r = python(['@input'], proofs);
    expect(r.lines).toHaveLength(proofs.length);
    expect(r.lines.filter((l) => !l.startsWith('OK   '))).toEqual([]);
    expect(r.lines[0]).toBe(`OK   proof 0: grad_prob v1 leaf 0/1 root ${proofs[0]!.merkle_root_hex}`);
    expect(r.lines[r.lines.length - 1]).toBe(`OK   proof ${proofs.length - 1}: perps v1 leaf 4/5 root ${proofs[proofs.length - 1]!.merkle_root_hex}`);
    expect(r.status).toBe(0);
  });

  it('places a perps leaf in its hour by detected_at', () => {
    const doc = proofDocument(perpsCommit(3), 1);
    const r = python(['@input'], [{ ...doc, hour: new Date(HOUR.getTime() + 3_600_000).toISOString() }]);
    expect(r).toMatchObject({ status: 1, lines: ['FAIL proof 0: leaf detected_at is outside the hour'] });
  });

  it('refuses a tampered payload, sibling, side or root, naming the failure, and exits 1', () => {
    const [doc] = allProofs(7, 23).slice(3);
    const proof = doc!;
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const tampered: ProofDocument[] = [
      { ...proof, leaf_payload: proof.leaf_payload.replace('"mint":"', '"mint":"X') },
      { ...proof, siblings: proof.siblings.map((s, i) => (i === 1 ? { ...s, hash: flip(s.hash) } : s)) },
      { ...proof, siblings: proof.siblings.map((s, i) => (i === 0 ? { ...s, side: s.side === 'left' ? 'right' : 'left' } : s)) },
      { ...proof, merkle_root_hex: flip(proof.merkle_root_hex) },
    ];
    const r = python(['@input'], tampered);
    expect(r.lines).toEqual([
      'FAIL proof 0: leaf_hash is not SHA-256 of the payload',
      'FAIL proof 1: path does not arrive at the root',
      'FAIL proof 2: sibling 0 should be on the left',
      'FAIL proof 3: path does not arrive at the root',
    ]);
    expect(r.status).toBe(1);
  });

  it('gives one verdict line and the exit code for a single proof', () => {
    const [proof] = allProofs(5, 29).slice(4);
    expect(python(['@input'], proof)).toMatchObject({ status: 0, lines: [expect.stringMatching(/^OK {3}proof 0: grad_prob v1 leaf 4\/5 root [0-9a-f]{64}$/)] });
    expect(python(['@input'], { ...proof!, leaf_index: 5 })).toMatchObject({ status: 1, lines: ['FAIL proof 0: leaf_index is outside 0..leaf_count-1'] });
  });

  it('refuses payloads our own reader refuses: non-canonical, floats, duplicate keys, unknown versions', () => {
    const [proof] = allProofs(1, 31);
    // A one-leaf hour: the root is the leaf hash.
    const withPayload = (p: string) => ({ ...proof!, leaf_payload: p, leaf_hash: sha256Hex(p), merkle_root_hex: sha256Hex(p) });
    const p = proof!.leaf_payload;
    const r = python(
      ['@input'],
      [
        withPayload(p),
        withPayload(` ${p}`),
        withPayload(p.replace('"age_bucket":', '"age_bucket":0.5,"x":')),
        withPayload(p.replace('"age_bucket":30,', '"age_bucket":30,"age_bucket":30,')),
        withPayload(p.replace('"leaf_version":1', '"leaf_version":2')),
        withPayload(p.replace('"age_bucket":30', '"age_bucket":NaN')),
      ],
    );
    expect(r.lines.map((l) => l.replace(/^(OK|FAIL) +proof \d: /, '$1 '))).toEqual([
      expect.stringMatching(/^OK grad_prob v1 leaf 0\/1/),
      'FAIL payload is not in canonical form',
      expect.stringMatching(/^FAIL payload holds a non-integer number \(0.5\)/),
      'FAIL payload repeats a key',
      "FAIL unknown leaf format 'grad_prob' v2",
      'FAIL payload holds NaN',
    ]);
  });

  it('re-serialises leaves and commit records to our canonical bytes with Python json (sort_keys, no whitespace, UTF-8)', () => {
    const commit = gradProbCommit(20, 37);
    const objects = [
      ...commit.leaves.map((l) => JSON.parse(l.payload) as Record<string, unknown>),
      JSON.parse(proofDocument(commit, 0).leaf_payload),
      JSON.parse(commitRecordPayload(commit.record)),
      { text: 'é € 😀 \u0000 \u001f \u007f \u2028 / " \\ \b\f\n\r\t', n: 9007199254740991, neg: -42, t: true, f: false, z: null },
    ];
    // Keys reversed and pretty-printed, so Python has to do the sorting and the compacting itself; one array
    // so one run (an array's canonical form is its elements' canonical forms, comma-joined).
    const messy = JSON.stringify(
      objects.map((o) => Object.fromEntries(Object.entries(o).reverse())),
      null,
      2,
    );
    expect(python(['--canonical', '@input'], messy).stdout).toBe(canonicalJson(objects as never));
  });

  it('differs from JCS exactly where the leaf format avoids: non-integer numbers and keys beyond U+FFFF', () => {
    expect(python(['--canonical', '@input'], '[1e-7, 1e16, 5.0, 0.00001, 1e21]').stdout).toBe('[1e-07,1e+16,5.0,1e-05,1e+21]');
    expect(canonicalJson(JSON.parse('[1e-7, 1e16, 5.0, 0.00001, 1e21]'))).toBe('[1e-7,10000000000000000,5,0.00001,1e+21]');
    const keys = '{"\\ufb33": 1, "\\ud83d\\ude00": 2}';
    expect(python(['--canonical', '@input'], keys).stdout).toBe('{"\ufb33":1,"\ud83d\ude00":2}');
    expect(canonicalJson(JSON.parse(keys))).toBe('{"\ud83d\ude00":2,"\ufb33":1}');
  });

  it('knows exactly the leaf versions the registry has', () => {
    const ours: Record<string, readonly string[]> = {};
    for (const t of Object.values(LEDGER_TRACKS)) for (const f of Object.values(t.versions)) ours[`${f.track}/${f.version}`] = f.fields;
    expect(JSON.parse(python(['--formats']).stdout)).toEqual(ours);
  });

  it('answers a usage error with exit 2', () => {
    expect(python([]).status).toBe(2);
    expect(python(['--nope', 'x']).status).toBe(2);
    expect(python([join(dir, 'missing.json')]).status).toBe(2);
  });
});
