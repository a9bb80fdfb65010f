import { createHash } from 'node:crypto';
import { SeededRandom } from './seeded-random';

/**
 * The metadata of simulated launches (synthetic). Each launch gets an `ipfs://` URI whose CID carries what the
 * simulated gateway answers for it (ingest/metadata-simulator), so the gateway keeps no state: a restarted gateway,
 * a second one and a replayed launch all answer the same. The kind of document is drawn by a random stream of the
 * launch's own, seeded by its mint address (itself drawn by the market's stream), so the market's stream and every
 * seeded figure built on it stay as they were. The mix is an assumption about launchpad front-ends, fixed here and
 * not fitted to anything: most launches link a social, a sizeable share link none, and a few are broken in the ways
 * real metadata hosts are (a document naming another token, no image, a CID no gateway has, a page that is not JSON).
 */
export const SIMULATED_METADATA_MIX = [
  { kind: 'socials', weight: 0.45 },
  { kind: 'plain', weight: 0.3 },
  { kind: 'other-symbol', weight: 0.08 },
  { kind: 'no-image', weight: 0.05 },
  { kind: 'gone', weight: 0.07 },
  { kind: 'not-json', weight: 0.05 },
] as const;
export type SimulatedMetadataKind = (typeof SIMULATED_METADATA_MIX)[number]['kind'];

/** CID prefixes the simulated gateway reads: a document follows `DOC` (base64url JSON); the others carry a nonce. */
const CID = { doc: 'bafysimd', gone: 'bafysimz', notJson: 'bafysimx' } as const;

const launchRandom = (mint: string) => new SeededRandom(createHash('sha256').update(`metadata:${mint}`).digest().readUInt32BE(0));

function drawKind(rng: SeededRandom): SimulatedMetadataKind {
  let u = rng.float();
  for (const m of SIMULATED_METADATA_MIX) if ((u -= m.weight) < 0) return m.kind;
  return SIMULATED_METADATA_MIX[0].kind;
}

/** The metadata URI of a simulated launch and the kind of document behind it. */
export function simulatedMetadata(launch: { mint: string; name: string; symbol: string }): { uri: string; kind: SimulatedMetadataKind } {
  const rng = launchRandom(launch.mint);
  const kind = drawKind(rng);
  const tag = launch.mint.slice(0, 8).toLowerCase();
  if (kind === 'gone') return { uri: `ipfs://${CID.gone}${tag}`, kind };
  if (kind === 'not-json') return { uri: `ipfs://${CID.notJson}${tag}`, kind };
  const doc: Record<string, string> = {
    name: launch.name,
    symbol: kind === 'other-symbol' ? `${launch.symbol}X` : launch.symbol,
    description: `${launch.name} on the simulated launchpad`,
  };
  if (kind !== 'no-image') doc.image = `ipfs://bafysimimg${tag}`;
  if (kind === 'socials') {
    // At least one link, each of the three with even odds beyond it.
    const links = { twitter: `https://x.com/${tag}`, telegram: `https://t.me/${tag}`, website: `https://${tag}.example` };
    const keys = Object.keys(links) as (keyof typeof links)[];
    const first = keys[rng.int(0, keys.length)]!;
    for (const k of keys) if (k === first || rng.chance(0.5)) doc[k] = links[k];
  }
  return { uri: `ipfs://${CID.doc}${Buffer.from(JSON.stringify(doc)).toString('base64url')}`, kind };
}

/** What the simulated gateway answers for `GET /ipfs/<cid>`: a document, a page that is not JSON, or nothing (404). */
export function simulatedMetadataAnswer(cid: string): { status: 200; json: unknown } | { status: 200; html: string } | { status: 404 } {
  if (cid.startsWith(CID.notJson)) return { status: 200, html: '<html><body>Gateway Time-out</body></html>' };
  if (!cid.startsWith(CID.doc)) return { status: 404 };
  try {
    return { status: 200, json: JSON.parse(Buffer.from(cid.slice(CID.doc.length), 'base64url').toString('utf8')) as unknown };
  } catch {
    return { status: 404 };
  }
}
