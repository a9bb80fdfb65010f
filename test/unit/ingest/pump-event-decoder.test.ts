import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { CURVE, type CreateEvent, type LaunchEvent, type TradeEvent } from '../../../domain/launch/launch-events';
import { PumpEventDecoder, type TransactionLogs } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl, PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { readCapturedTransactions } from '../../fakes/solana-rpc-server';
import { SHARED_DATA } from '../../support/test-env';

const IDL_PATH = path.join(SHARED_DATA, 'idl', 'pump.json');
const decoder = new PumpEventDecoder(loadPumpIdl(IDL_PATH));
const captured = readCapturedTransactions();
const receivedAt = new Date('2026-07-04T12:00:00Z');
const ctx = { source: 'solana-logs', receivedAt };
const asLogs = (t: (typeof captured)[number], over: Partial<TransactionLogs> = {}): TransactionLogs => ({
  signature: t.signature,
  slot: t.slot,
  err: t.err,
  logs: t.logs,
  blockTime: null,
  ...over,
});
const tx = (signature: string) => captured.find((t) => t.signature === signature)!;
const DATA = 'Program data: ';
/** Every `Program data:` payload of the launchpad's own invocations in a transaction (first one of each event). */
const payloadsOf = (t: (typeof captured)[number], name: string) =>
  t.logs
    .filter((l) => l.startsWith(DATA))
    .map((l) => l.slice(DATA.length))
    .filter((p) => {
      const d = decoder.decodeData(p);
      return d.kind === 'event' && d.event.name === name;
    });

describe('pump event decoder (IDL-driven) on the recorded logsSubscribe session', () => {
  const all = captured.map((t) => ({ t, d: decoder.decodeTransaction(asLogs(t), ctx) }));
  const events = all.flatMap((x) => x.d.events);

  it('finds the events the capture holds: 19 creates and 93 trades, all in successful transactions', () => {
    expect(captured).toHaveLength(146);
    const failed = captured.filter((t) => t.err !== null);
    expect(failed).toHaveLength(47);
    const count = (k: LaunchEvent['kind']) => events.filter((e) => e.kind === k).length;
    expect(count('create')).toBe(19);
    expect(count('trade')).toBe(93);
    expect(count('complete')).toBe(0);
    expect(all.flatMap((x) => x.d.errors)).toEqual([]);
    // What is true of the failed ones: they carry no launchpad payload at all in this capture…
    expect(failed.flatMap((t) => payloadsOf(t, 'CreateEvent').concat(payloadsOf(t, 'TradeEvent')))).toEqual([]);
    // …and the other launchpad events (fee, account, creator) are recognised and deliberately not mapped.
    expect(all.reduce((n, x) => n + x.d.ignored, 0)).toBe(8);
    expect(all.reduce((n, x) => n + x.d.unknownDiscriminators, 0)).toBe(0);
  });

  it('decodes a create with the values of its bytes (checked by hand with an independent borsh reader)', () => {
    const [create, buy] = decoder.decodeTransaction(
      asLogs(tx('5h4KqFi7XVRtVsBAKgsxyTqCn28whpAS6VX7Yhiifg7ASyJeoKCLZiqu4b4PApSSfaWcHngQMjm3fxGxxRmMvjCK')),
      ctx,
    ).events;
    expect(create).toEqual<CreateEvent>({
      kind: 'create',
      signature: '5h4KqFi7XVRtVsBAKgsxyTqCn28whpAS6VX7Yhiifg7ASyJeoKCLZiqu4b4PApSSfaWcHngQMjm3fxGxxRmMvjCK',
      ordinal: 0,
      slot: 430727546,
      at: new Date(1783165124 * 1000),
      source: 'solana-logs',
      mint: 'GzwTkWAtFZJymqo3DbrHopLG7kCwkFhGUYtvb9APpump',
      name: 'Freedom 250',
      symbol: 'FREEDOM',
      uri: 'https://metadata.j7tracker.io/metadata/6UHOnrhM6k.json',
      bondingCurve: '7neUBsaWA9KjgzdkAN694FtP9eBy8yFKSzEXfguK2s9Q',
      creator: 'EWFh5u3fVvznKLGDy8i5nCKTtimxJxtzVPWD5rbLYvpA',
      mayhem: false,
      vSolLamports: CURVE.initialVSolLamports,
      vTokensRaw: CURVE.initialVTokensRaw,
    });
    // The creator's initial buy in the same transaction.
    expect(buy).toMatchObject({ kind: 'trade', mint: create!.mint, trader: 'EWFh5u3fVvznKLGDy8i5nCKTtimxJxtzVPWD5rbLYvpA', isBuy: true, ordinal: 0 });
  });

  it('decodes a trade with the values of its bytes', () => {
    const [trade] = decoder.decodeTransaction(
      asLogs(tx('5ZSwbesmn1so7F3EfAEkBcRcMmF38nTB9ycgU4gGwKN73QJD3DpTxRbqE2MB3YqErcvzqoyCPW6f5KtrGuKSEUDh')),
      ctx,
    ).events;
    expect(trade).toEqual<TradeEvent>({
      kind: 'trade',
      signature: '5ZSwbesmn1so7F3EfAEkBcRcMmF38nTB9ycgU4gGwKN73QJD3DpTxRbqE2MB3YqErcvzqoyCPW6f5KtrGuKSEUDh',
      ordinal: 0,
      slot: 430727484,
      at: new Date(1783165099 * 1000),
      source: 'solana-logs',
      mint: 'CJiJAKFMD7HruUZwDhK5vBPV379yGhnR7YuLNbFxpump',
      trader: '6Q9413Rt2YTH2rKCjVueFwnxM4Ri472EmrgRPDzMyxxf',
      isBuy: false,
      solLamports: 1068544735,
      tokensRaw: 25511755060526,
      vSolLamports: 36188261779,
      vTokensRaw: 889514954991884,
    });
  });

  it('numbers events of one kind for one mint within a transaction', () => {
    const multi = all.filter((x) => x.d.events.filter((e) => e.kind === 'trade').length > 1);
    expect(multi.length).toBeGreaterThan(0);
    for (const { d } of multi) {
      const seen = new Map<string, number[]>();
      for (const e of d.events) seen.set(`${e.kind}:${e.mint}`, [...(seen.get(`${e.kind}:${e.mint}`) ?? []), e.ordinal]);
      for (const ords of seen.values()) expect(ords).toEqual(ords.map((_, i) => i));
    }
    expect(multi.some(({ d }) => d.events.some((e) => e.ordinal === 1))).toBe(true);
  });

  it('reads the mayhem flag', () => {
    const mayhem = events.filter((e): e is CreateEvent => e.kind === 'create' && e.mayhem);
    expect(mayhem.map((e) => e.name).sort()).toEqual(['America', 'America', 'eagle']);
  });

  it('yields nothing for a failed transaction, even when its logs carry launchpad events', () => {
    const ok = tx('5h4KqFi7XVRtVsBAKgsxyTqCn28whpAS6VX7Yhiifg7ASyJeoKCLZiqu4b4PApSSfaWcHngQMjm3fxGxxRmMvjCK');
    expect(decoder.decodeTransaction(asLogs(ok), ctx).events.length).toBeGreaterThan(0);
    expect(decoder.decodeTransaction(asLogs(ok, { err: { InstructionError: [2, { Custom: 6002 }] } }), ctx).events).toEqual([]);
  });

  it('counts only payloads logged while the launchpad program itself runs', () => {
    const payload = payloadsOf(tx('5ZSwbesmn1so7F3EfAEkBcRcMmF38nTB9ycgU4gGwKN73QJD3DpTxRbqE2MB3YqErcvzqoyCPW6f5KtrGuKSEUDh'), 'TradeEvent')[0]!;
    const other = 'Other1111111111111111111111111111111111111';
    const logs = [
      `Program ${other} invoke [1]`,
      `${DATA}${payload}`, // another program logging launchpad-looking bytes
      `Program ${PUMP_PROGRAM_ID} invoke [2]`,
      `${DATA}${payload}`, // the launchpad, called by the other program: counts
      `Program ${PUMP_PROGRAM_ID} consumed 5000 of 200000 compute units`,
      `Program ${PUMP_PROGRAM_ID} success`,
      `${DATA}${payload}`, // back in the caller
      `Program ${other} success`,
      `Program ${PUMP_PROGRAM_ID} invoke [1]`,
      `Program ${other} invoke [2]`,
      `${DATA}${payload}`, // a program the launchpad called
      `Program ${other} failed: custom program error: 0x1`,
      `Program ${PUMP_PROGRAM_ID} failed: custom program error: 0x1`,
    ];
    const d = decoder.decodeTransaction({ signature: 'sig', slot: 1, err: null, logs, blockTime: null }, ctx);
    expect(d.events).toHaveLength(1);
  });

  it('counts garbage and truncated payloads as errors instead of throwing', () => {
    const payload = payloadsOf(tx('5ZSwbesmn1so7F3EfAEkBcRcMmF38nTB9ycgU4gGwKN73QJD3DpTxRbqE2MB3YqErcvzqoyCPW6f5KtrGuKSEUDh'), 'TradeEvent')[0]!;
    const cut = Buffer.from(payload, 'base64')
      .subarray(0, 8 + 32 + 4)
      .toString('base64'); // mint, then half an amount
    const logs = [
      `Program ${PUMP_PROGRAM_ID} invoke [1]`,
      `${DATA}%%%not base64%%%`,
      `${DATA}${payload.slice(0, 101)}`,
      `${DATA}${cut}`,
      `${DATA}AAAA`,
      `${DATA}${payload}`,
      `Program ${PUMP_PROGRAM_ID} success`,
    ];
    const d = decoder.decodeTransaction({ signature: 'sig', slot: 1, err: null, logs, blockTime: null }, ctx);
    expect(d.errors).toHaveLength(4);
    expect(d.errors.join('\n')).toMatch(/TradeEvent: missing field/);
    expect(d.events).toHaveLength(1);
  });

  it('decodes the known prefix of an older CreateEvent (cut before is_mayhem_mode) and ignores a newer one’s extra bytes', () => {
    const t = captured.find((c) => decoder.decodeTransaction(asLogs(c), ctx).events.some((e) => e.kind === 'create' && e.mayhem))!;
    const full = Buffer.from(payloadsOf(t, 'CreateEvent')[0]!, 'base64');
    const d = decoder.decodeData(full.toString('base64'));
    if (d.kind !== 'event') throw new Error('expected an event');
    const strings = ['name', 'symbol', 'uri'].map((k) => 4 + Buffer.byteLength(d.event.fields[k] as string));
    // discriminator, 3 strings, mint/bonding_curve/user/creator, timestamp, 4 u64 reserves/supply, token_program
    const mayhemAt = 8 + strings.reduce((a, b) => a + b, 0) + 4 * 32 + 8 + 4 * 8 + 32;
    expect(full[mayhemAt]).toBe(1);

    const older = full.subarray(0, mayhemAt).toString('base64');
    const od = decoder.decodeData(older);
    expect(od.kind === 'event' && od.event.missing.slice(0, 2)).toEqual(['is_mayhem_mode', 'is_cashback_enabled']);
    const logsOf = (p: string) => [`Program ${PUMP_PROGRAM_ID} invoke [1]`, `${DATA}${p}`, `Program ${PUMP_PROGRAM_ID} success`];
    const [fromOlder] = decoder.decodeTransaction({ signature: 's', slot: 1, err: null, logs: logsOf(older), blockTime: null }, ctx).events;
    const [fromFull] = decoder.decodeTransaction({ signature: 's', slot: 1, err: null, logs: logsOf(full.toString('base64')), blockTime: null }, ctx).events;
    expect(fromFull).toMatchObject({ kind: 'create', mayhem: true });
    expect(fromOlder).toEqual({ ...fromFull, mayhem: false });

    const newer = Buffer.concat([full, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9])]).toString('base64');
    const [fromNewer] = decoder.decodeTransaction({ signature: 's', slot: 1, err: null, logs: logsOf(newer), blockTime: null }, ctx).events;
    expect(fromNewer).toEqual(fromFull);
  });

  it('reports an unknown discriminator from the launchpad without failing', () => {
    const unknown = Buffer.concat([Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]), Buffer.alloc(16)]).toString('base64');
    const d = decoder.decodeTransaction(
      { signature: 's', slot: 1, err: null, logs: [`Program ${PUMP_PROGRAM_ID} invoke [1]`, `${DATA}${unknown}`], blockTime: null },
      ctx,
    );
    expect(d).toMatchObject({ events: [], errors: [], unknownDiscriminators: 1 });
  });
});

describe('loadPumpIdl', () => {
  it('refuses an IDL of another program or shape', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idl-'));
    const idl = JSON.parse(fs.readFileSync(IDL_PATH, 'utf8'));
    fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ ...idl, address: 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA' }));
    fs.writeFileSync(path.join(dir, 'legacy.json'), JSON.stringify({ version: '0.1.0', name: 'pump', events: [] }));
    expect(() => loadPumpIdl(path.join(dir, 'other.json'))).toThrow(/describes program pAMM/);
    expect(() => loadPumpIdl(path.join(dir, 'legacy.json'))).toThrow(/not an Anchor/);
    expect(() => loadPumpIdl(path.join(dir, 'missing.json'))).toThrow(/cannot read/);
  });
});
