import fs from 'node:fs';
import path from 'node:path';
import { curveFeesOn } from '../../../domain/paper/curve-fees';
import { buyOnCurve, sellOnCurve } from '../../../domain/paper/curve-fill';
import { walkProgramData } from '../../../clients/solana/pump/program-log-walker';
import { PumpEventDecoder } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl } from '../../../clients/solana/pump/pump-idl';
import { SHARED_DATA } from '../../support/test-env';

/**
 * The fill math against the launchpad's own arithmetic: every TradeEvent of the recorded logsSubscribe session
 * states the fee rates it charged, the fees, the SOL and tokens moved and the reserves after the trade.
 * Mayhem curves are left out: they are out of scope and run on other reserves.
 */
type Trade = {
  isBuy: boolean;
  ix: string;
  sol: number;
  tokens: number;
  fee: number;
  creatorFee: number;
  feeBps: number;
  creatorBps: number;
  vSolAfter: number;
  vTokAfter: number;
};

function recordedTrades(): Trade[] {
  const decoder = new PumpEventDecoder(loadPumpIdl(path.join(SHARED_DATA, 'idl', 'pump.json')));
  const lines = fs
    .readFileSync(path.join(SHARED_DATA, 'captures', 'helius', 'logs_subscribe_pumpfun.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const out: Trade[] = [];
  for (const line of lines) {
    const value = JSON.parse(JSON.parse(line).raw)?.params?.result?.value;
    if (!value || value.err) continue;
    for (const payload of walkProgramData(value.logs, decoder.programId).payloads) {
      const d = decoder.decodeData(payload);
      if (d.kind !== 'event' || d.event.name !== 'TradeEvent') continue;
      const f = d.event.fields as Record<string, { toString(): string } | boolean | string>;
      const n = (k: string) => Number(String(f[k]));
      if (f.mayhem_mode === true || n('fee_basis_points') === 0) continue;
      out.push({
        isBuy: f.is_buy === true,
        ix: String(f.ix_name),
        sol: n('sol_amount'),
        tokens: n('token_amount'),
        fee: n('fee'),
        creatorFee: n('creator_fee'),
        feeBps: n('fee_basis_points'),
        creatorBps: n('creator_fee_basis_points'),
        vSolAfter: n('virtual_sol_reserves'),
        vTokAfter: n('virtual_token_reserves'),
      });
    }
  }
  return out;
}

describe('curve fills against recorded launchpad trades', () => {
  const trades = recordedTrades();

  it('has enough recorded trades of both sides to mean something', () => {
    expect(trades.filter((t) => t.isBuy).length).toBeGreaterThanOrEqual(20);
    expect(trades.filter((t) => !t.isBuy).length).toBeGreaterThanOrEqual(20);
  });

  it('charges exactly the recorded protocol and creator fees', () => {
    for (const t of trades) {
      const f = curveFeesOn(BigInt(t.sol), { protocolBps: t.feeBps, creatorBps: t.creatorBps });
      expect([Number(f.protocol), Number(f.creator)]).toEqual([t.fee, t.creatorFee]);
    }
  });

  it('pays out exactly the recorded SOL of every sale', () => {
    for (const t of trades.filter((x) => !x.isBuy)) {
      const before = { vSolLamports: t.vSolAfter + t.sol, vTokensRaw: t.vTokAfter - t.tokens };
      const s = sellOnCurve(before, t.tokens, { protocolBps: t.feeBps, creatorBps: t.creatorBps });
      expect(s.ok && [s.grossLamports, s.proceedsLamports]).toEqual([t.sol, t.sol - t.fee - t.creatorFee]);
    }
  });

  it('puts the recorded SOL into the curve for the recorded spend, and buys the recorded tokens to within a millionth', () => {
    for (const t of trades.filter((x) => x.isBuy)) {
      const before = { vSolLamports: t.vSolAfter - t.sol, vTokensRaw: t.vTokAfter + t.tokens };
      const b = buyOnCurve(before, t.sol + t.fee + t.creatorFee, { protocolBps: t.feeBps, creatorBps: t.creatorBps });
      if (!b.ok) throw new Error(b.reason);
      expect(b.solToCurveLamports).toBe(t.sol);
      expect(b.solSpentLamports).toBe(t.sol + t.fee + t.creatorFee);
      // `buy` names its tokens (a few raw units under what the SOL buys); `buy_exact_sol_in` rounds a lamport or
      // two differently. Either way the difference is below a millionth of the fill.
      expect(b.tokensRaw).toBeGreaterThanOrEqual(t.tokens);
      expect((b.tokensRaw - t.tokens) / t.tokens).toBeLessThan(1e-6);
    }
  });
});
