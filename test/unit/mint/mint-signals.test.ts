import { GRAD_PROB_SHOWN_UNTIL_S } from '../../../domain/live/enriched-mint';
import { botTradeShare, botWallets, mintSignals, topBuyers } from '../../../domain/launch/mint-signals';
import { freshAmongFirstBuyers, freshFirst3, freshWalletShare, unknownBuyers } from '../../../domain/launch/wallet-freshness';
import { CREATE_SLOT, T0, handBuiltMint } from '../../support/hand-built-mint';
import { enrichHandBuilt } from '../../support/enrich-hand-built';

describe('bot, quality and activity signals', () => {
  it('classify snipers, bundle buyers and flippers as bots, never the creator', () => {
    const m = handBuiltMint();
    m.buy(0, 'DEV', 1, CREATE_SLOT);
    m.buy(0.1, 'BUNDLE', 1, CREATE_SLOT);
    m.buy(2, 'SNIPER', 1);
    const flipped = m.buy(20, 'FLIPPER', 1);
    m.sell(25, 'FLIPPER', flipped);
    const held = m.buy(30, 'HOLDER', 1);
    m.sell(45, 'HOLDER', held); // sold 15 s after buying: not a flip
    m.sell(50, 'DEV', 1000);
    const tape = m.tape();
    expect([...botWallets(tape)].sort()).toEqual(['BUNDLE', 'FLIPPER', 'SNIPER']);
    // Bots traded 4 of the 8 trades (bundle 1, sniper 1, flipper 2).
    expect(botTradeShare(tape)).toBe(4 / 8);
  });

  it('answer null, not 0, where a figure is undefined', () => {
    const tape = handBuiltMint().tape();
    const s = mintSignals(tape, T0 + 10_000, new Map());
    expect(s.bot.bot_trade_share).toBeNull();
    expect(s.quality).toMatchObject({ has_socials: null, metadata_ok: null, fresh_wallet_share: null, top10_holder_share: 0, creator_holding_share: 0 });
    expect(s.bot.manufactured_pump).toBeNull();
    expect(s.activity).toMatchObject({ buys_60s: 0, sells_60s: 0, buy_sell_ratio_60s: null, last_trade_at: null });
  });

  it('count fresh buyers (no launchpad trade before the creation) among known buyers only', () => {
    const m = handBuiltMint();
    m.buy(1, 'DEV', 1);
    m.buy(2, 'A', 0.1);
    m.buy(3, 'B', 0.1);
    m.buy(4, 'C', 0.1);
    m.buy(5, 'D', 0.1);
    const tape = m.tape();
    expect(unknownBuyers(tape, new Map()).sort()).toEqual(['A', 'B', 'C', 'D']);
    const partial = new Map([
      ['A', true],
      ['B', false],
    ]);
    expect(freshFirst3(tape, partial)).toBeNull(); // C unknown
    expect(freshAmongFirstBuyers(tape, partial)).toBe(1);
    expect(freshWalletShare(tape, partial)).toBe(0.5);
    const all = new Map([...partial, ['C', true], ['D', true]]);
    expect(unknownBuyers(tape, all)).toEqual([]);
    expect(freshFirst3(tape, all)).toBe(2);
    expect(freshWalletShare(tape, all)).toBe(0.75);
  });

  it('list top buyers by net SOL in, with their 12-character prefix and a smart score only when the index knows it', () => {
    const m = handBuiltMint();
    const wallets = Array.from({ length: 12 }, (_, i) => `Wallet${String(i).padStart(2, '0')}abcdefghij`);
    wallets.forEach((w, i) => m.buy(i + 1, w, 0.1 * (i + 1)));
    const sold = m.buy(20, 'SellerWalletxyz', 5);
    m.sell(21, 'SellerWalletxyz', sold); // holds nothing: not a top buyer
    const top = topBuyers(m.tape(), new Map([['Wallet11abcd', 0.42]]));
    expect(top).toHaveLength(10);
    expect(top[0]).toMatchObject({ wallet_prefix: 'Wallet11abcd', sol_in: 1.2, smart_score: 0.42 });
    expect(top.map((b) => b.wallet_prefix)).toEqual(
      wallets
        .slice(2)
        .reverse()
        .map((w) => w.slice(0, 12)),
    );
    expect(top.slice(1).every((b) => b.smart_score === null)).toBe(true);
  });
});

describe('enriched mint', () => {
  const enrich = (ageS: number, survivalLive: boolean) => enrichHandBuilt(ageS, { survivalLive });

  it('shows runner odds with the score and the price they are measured from, then drops both', () => {
    const young = enrich(70, false);
    expect(young).toMatchObject({
      grad_prob: 0.2,
      runner_prob_5x_from_now: 0.1,
      runner_prob_20x_from_now: 0.01,
      runner_reference_price_sol: 4e-8,
      rug_prob: 0.1,
    });
    const old = enrich(GRAD_PROB_SHOWN_UNTIL_S + 1, false);
    expect(old).toMatchObject({ grad_prob: null, runner_prob_2x_from_now: null, runner_reference_price_sol: null, rug_prob: 0.1 });
  });

  it('publishes the survival score only while its gate is live', () => {
    expect(enrich(70, false)).toMatchObject({ post_grad_survival_prob: null, post_grad_survival_status: 'suspended' });
    expect(enrich(70, true)).toMatchObject({ post_grad_survival_prob: 0.6, post_grad_survival_status: 'live' });
  });

  it('reports an unknown creator as 0 resolved launches with null rate and flag, and this launch as its one known launch', () => {
    expect(enrich(70, false)).toMatchObject({ n_launches: 1, n_launches_resolved: 0, rate_5x: null, runner_creator: null });
  });
});
