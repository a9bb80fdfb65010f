import { CURVE, type CreateEvent, type LaunchEvent } from '../../../domain/launch/launch-events';
import { parsePumpPortalFrame, type PumpPortalParse } from '../../../ingest/pumpportal/pumpportal-parser';
import { readPumpPortalCapture, tradeFrame } from '../../fakes/pumpportal-server';

const receivedAt = new Date('2026-07-03T15:25:27.165Z');
const ctx = { receivedAt, source: 'pumpportal' };
const parse = (raw: string) => parsePumpPortalFrame(raw, ctx);
const eventsOf = (r: PumpPortalParse): LaunchEvent[] => (r.kind === 'events' ? r.events : []);

const SIG = '5N5h7ehwg5ragxwPSACUsSg1tfuT5bK3uE9qsshrNrofjuqR1gaM3G4uVMJFUgT4Vwr3QqkyJQaQSdQNnccuAxoM';
const MINT = 'g5nAdAoNfmoemZrnzHKZV3HMUofXM2fPsQ8vLBqqd2H';
const TRADER = 'bwamJzztZsepfkteWRChggmXuiiCQvpLqPietdNfSXa';

describe('PumpPortal frame parser on the recorded session', () => {
  const results = readPumpPortalCapture().map((f) => ({ raw: f.raw, r: parse(f.raw) }));
  const byKind = (k: PumpPortalParse['kind']) => results.filter((x) => x.r.kind === k);
  const events = results.flatMap((x) => eventsOf(x.r));

  it('classifies every frame: acknowledgements, launches, migrations, another launchpad, broken creates', () => {
    expect(results).toHaveLength(208);
    expect(byKind('notice').map((x) => x.r.kind === 'notice' && x.r.error)).toEqual([false, false, false]);
    expect(events.filter((e) => e.kind === 'create')).toHaveLength(187);
    expect(events.filter((e) => e.kind === 'trade')).toHaveLength(167); // creates with an initial buy
    expect(events.filter((e) => e.kind === 'migrate')).toHaveLength(7);
    expect(byKind('ignored').map((x) => x.r.kind === 'ignored' && x.r.reason)).toEqual(['create on pool bonk']);
    // Ten create frames name USDC's mint and carry no name/symbol/uri: not a launch this pipeline can use.
    const bad = byKind('bad');
    expect(bad).toHaveLength(10);
    for (const b of bad) {
      expect(JSON.parse(b.raw)).toMatchObject({ txType: 'create', mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' });
      expect(b.r).toMatchObject({ kind: 'bad', reason: expect.stringMatching(/^create: name/) });
    }
  });

  it('derives the pre-buy reserves of every create, which are the launch constants', () => {
    const creates = events.filter((e): e is CreateEvent => e.kind === 'create');
    for (const c of creates) expect([c.vSolLamports, c.vTokensRaw]).toEqual([CURVE.initialVSolLamports, CURVE.initialVTokensRaw]);
    expect(creates.filter((c) => c.mayhem)).toHaveLength(36);
  });

  it('maps a create with an initial buy to a create and the creator’s trade (values checked by hand)', () => {
    const raw = results.find((x) => x.raw.includes(SIG))!.raw;
    expect(eventsOf(parse(raw))).toEqual([
      {
        kind: 'create',
        signature: SIG,
        ordinal: 0,
        slot: null,
        at: receivedAt,
        source: 'pumpportal',
        mint: MINT,
        name: 'tremp mubile',
        symbol: 't1',
        uri: 'https://meta.sdfgsdfsdf.uk/metadata/dEBqafob',
        bondingCurve: 'GDEagEqdveEs9HYcd3pbDXfV8Xs7bKofbinvFwX6hP3i',
        creator: TRADER,
        mayhem: false,
        vSolLamports: 30_000_000_000,
        vTokensRaw: 1_073_000_000_000_000,
      },
      {
        kind: 'trade',
        signature: SIG,
        ordinal: 0,
        slot: null,
        at: receivedAt,
        source: 'pumpportal',
        mint: MINT,
        trader: TRADER,
        isBuy: true,
        solLamports: 4_938_271_603, // solAmount 4.938271603
        tokensRaw: 151_660_777_334_045, // initialBuy 151660777.334045
        vSolLamports: 34_938_271_603, // vSolInBondingCurve 34.93827160299997
        vTokensRaw: 921_339_222_665_955, // vTokensInBondingCurve 921339222.6659551
      },
    ]);
  });

  it('maps a migration, with no pool account (the frame names a venue)', () => {
    const raw = results.find((x) => x.raw.includes('"txType":"migrate"'))!.raw;
    expect(eventsOf(parse(raw))).toEqual([
      {
        kind: 'migrate',
        signature: '52MoTgakx7Jdup1kTpZncNy99YmHLxTNEoS4FeZE8fQ3SKtHgWhsS9iYhvW5pKPDhMKkGAjvBGkzEqdETWN15inJ',
        ordinal: 0,
        slot: null,
        at: receivedAt,
        source: 'pumpportal',
        mint: 'BzqYzBGydDrwjnYVtWfupr8GFoSxpCQdTkjRppBKpump',
        pool: null,
      },
    ]);
  });
});

describe('PumpPortal trade frames (documented shape; the capture has none)', () => {
  const base = { signature: SIG, mint: MINT, trader: TRADER, sol: 0.123456789, tokens: 3_571_428.571429, vSol: 35.5, vTokens: 906_760_563.380282 };

  it('converts decimal SOL and whole tokens to lamports and raw units', () => {
    expect(eventsOf(parse(tradeFrame({ ...base, isBuy: false })))).toEqual([
      expect.objectContaining({
        kind: 'trade',
        isBuy: false,
        solLamports: 123_456_789,
        tokensRaw: 3_571_428_571_429,
        vSolLamports: 35_500_000_000,
        vTokensRaw: 906_760_563_380_282,
        slot: null,
        at: receivedAt,
      }),
    ]);
  });

  it('ignores trades after graduation (AMM pool), which are not curve trades', () => {
    expect(parse(tradeFrame({ ...base, isBuy: true, pool: 'pump-amm' }))).toEqual({ kind: 'ignored', reason: 'buy on pool pump-amm' });
  });

  it('numbers repeated trades of one mint in one transaction through the ordinal counter', () => {
    const counts = new Map<string, number>();
    const ordinal = (s: string, k: string, m: string) => {
      const n = counts.get(`${s}${k}${m}`) ?? 0;
      counts.set(`${s}${k}${m}`, n + 1);
      return n;
    };
    const frame = tradeFrame({ ...base, isBuy: true });
    const ords = [1, 2, 3].map(() => eventsOf(parsePumpPortalFrame(frame, { ...ctx, ordinal }))[0]!.ordinal);
    expect(ords).toEqual([0, 1, 2]);
  });

  it.each([
    ['not JSON', '{"txType":"buy","mint":'],
    ['an array', '[1,2]'],
    ['neither event nor notice', '{"hello":1}'],
    ['an unknown txType', JSON.stringify({ txType: 'burn', mint: MINT })],
    ['a negative amount', tradeFrame({ ...base, isBuy: true, sol: -1 })],
    ['a bad key', tradeFrame({ ...base, isBuy: true, mint: 'not-a-key' })],
    ['a string amount', tradeFrame({ ...base, isBuy: true }).replace('"solAmount":0.123456789', '"solAmount":"0.12"')],
  ])('rejects %s as a bad frame', (_name, raw) => {
    expect(parse(raw).kind).toBe('bad');
  });

  it('reports server error notices as errors', () => {
    expect(parse('{"errors":"Invalid message"}')).toEqual({ kind: 'notice', message: '"Invalid message"', error: true });
  });
});
