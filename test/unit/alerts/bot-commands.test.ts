import { parseCommand } from '../../../domain/alerts/bot-commands';

const MINT = 'So11111111111111111111111111111111111111112';
const SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

describe('bot commands as typed', () => {
  it('reads each command with its arguments', () => {
    expect(parseCommand('/start')).toEqual({ cmd: 'start' });
    expect(parseCommand('/help@launchpad_alerts_bot')).toEqual({ cmd: 'help' });
    expect(parseCommand('/link lp_live_abc_def')).toEqual({ cmd: 'link', key: 'lp_live_abc_def' });
    expect(parseCommand('/alert grad_prob 70')).toEqual({ cmd: 'alert', kind: 'grad_prob', param: '70' });
    expect(parseCommand('/remove 12')).toEqual({ cmd: 'remove', ruleId: 12 });
    expect(parseCommand(`/watch ${MINT}`)).toEqual({ cmd: 'watch', mint: MINT });
    expect(parseCommand('/signals act watch')).toEqual({ cmd: 'signals', tiers: ['ACT', 'WATCH'] });
    expect(parseCommand('/signals off')).toEqual({ cmd: 'signals', tiers: [] });
    expect(parseCommand('/quota')).toEqual({ cmd: 'tier' });
    expect(parseCommand('/upgrade')).toEqual({ cmd: 'upgrade', tier: 'pro', plan: 'monthly' });
    expect(parseCommand('/upgrade Builder')).toEqual({ cmd: 'upgrade', tier: 'builder', plan: 'monthly' });
    expect(parseCommand('/upgrade yearly builder')).toEqual({ cmd: 'upgrade', tier: 'builder', plan: 'yearly' });
    expect(parseCommand(`/link wallet ${MINT}`)).toEqual({ cmd: 'linkwallet', wallet: MINT });
    expect(parseCommand(`/sign ${SIG}`)).toEqual({ cmd: 'sign', signature: SIG });
  });

  it('answers bad input with its usage, never a crash', () => {
    expect(parseCommand('/alert moon 70')).toMatchObject({ cmd: 'bad', reply: expect.stringMatching(/^usage: \/alert/) });
    expect(parseCommand('/remove x')).toMatchObject({ cmd: 'bad', reply: expect.stringMatching(/^usage: \/remove/) });
    expect(parseCommand('/watch notamint')).toMatchObject({ cmd: 'bad' });
    expect(parseCommand('/signals LOUD')).toMatchObject({ cmd: 'bad' });
    expect(parseCommand('/link')).toMatchObject({ cmd: 'bad' });
    expect(parseCommand('/link wallet')).toMatchObject({ cmd: 'link', key: 'wallet' });
    expect(parseCommand('/link wallet a b')).toMatchObject({ cmd: 'bad', reply: expect.stringMatching(/^usage: \/link/) });
    expect(parseCommand('/upgrade gold')).toMatchObject({ cmd: 'bad', reply: expect.stringMatching(/^usage: \/upgrade/) });
    expect(parseCommand('/upgrade builder pro')).toMatchObject({ cmd: 'bad' });
    expect(parseCommand('/upgrade pro monthly extra')).toMatchObject({ cmd: 'bad' });
    expect(parseCommand('/sign')).toMatchObject({ cmd: 'bad', reply: expect.stringMatching(/^usage: \/sign/) });
    expect(parseCommand('/sign 0OIl')).toMatchObject({ cmd: 'bad' });
    expect(parseCommand('/frobnicate')).toEqual({ cmd: 'bad', reply: 'Unknown command /frobnicate; /help lists them.' });
    expect(parseCommand('hello')).toMatchObject({ cmd: 'bad' });
  });
});
