import { createMetadataClient } from '../../../clients/metadata/metadata-http-client';
import type { CreateEvent } from '../../../domain/launch/launch-events';
import { metadataQuality } from '../../../domain/metadata/launch-metadata';
import { startSimulatedMetadataServer } from '../../../ingest/metadata-simulator/simulated-metadata-server';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { SIMULATED_METADATA_MIX, simulatedMetadata, type SimulatedMetadataKind } from '../../../ingest/simulator/simulated-metadata';

/**
 * The embedded default's launch metadata: the simulator's launches name `ipfs://` URIs, the simulated gateway
 * answers them over HTTP, and the production client (no private-address allowance: the gateway is trusted as
 * configured) reads each into the fields the enriched mint shows. Figures here are synthetic.
 */
const EXPECTED: Record<SimulatedMetadataKind, { has_socials: boolean | null; metadata_ok: boolean | null; outcome?: string }> = {
  socials: { has_socials: true, metadata_ok: true },
  plain: { has_socials: false, metadata_ok: true },
  'other-symbol': { has_socials: false, metadata_ok: false },
  'no-image': { has_socials: false, metadata_ok: false },
  gone: { has_socials: null, metadata_ok: false, outcome: 'http_error' },
  'not-json': { has_socials: null, metadata_ok: false, outcome: 'invalid_json' },
};

let srv: Awaited<ReturnType<typeof startSimulatedMetadataServer>>;
beforeAll(async () => {
  srv = await startSimulatedMetadataServer();
});
afterAll(() => srv.close());

it('serves every simulated launch a document or a failure of its kind, in the fixed mix', async () => {
  const sim = createMarketSimulator({ seed: 5, launchesPerSecond: 2 });
  const t0 = Date.UTC(2026, 0, 1);
  const creates = [...sim.events(t0, t0 + 150_000)].filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);
  expect(creates.length).toBeGreaterThan(150);
  const client = createMetadataClient({ ipfsGateway: srv.url, timeoutMs: 2000, maxBytes: 65_536, allowPrivateTargets: false, cacheEntries: 1000 });
  const seen = new Map<SimulatedMetadataKind, number>();
  try {
    for (const c of creates) {
      const { uri, kind } = simulatedMetadata(c);
      expect(c.uri).toBe(uri);
      // The mints table keeps 500 characters of a URI: a longer one would lose its document.
      expect(uri.length).toBeLessThanOrEqual(500);
      const r = await client.fetch(uri);
      const { outcome, ...fields } = EXPECTED[kind];
      expect([kind, metadataQuality(r, c)]).toEqual([kind, fields]);
      if (outcome) expect(r).toMatchObject({ kind: 'failed', outcome });
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
    }
  } finally {
    client.close();
  }
  // Every kind occurs; the shares are the simulator's own draw, checked only loosely against its fixed mix.
  for (const m of SIMULATED_METADATA_MIX) expect([m.kind, (seen.get(m.kind) ?? 0) > 0]).toEqual([m.kind, true]);
  expect(seen.get('socials')! / creates.length).toBeGreaterThan(0.3);
});
