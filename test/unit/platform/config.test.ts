import os from 'node:os';
import { loadConfig } from '../../../platform/config';

/** Production must name a real feed: the default (the simulator) is refused there. */
const PROD = { NODE_ENV: 'production', INGEST_FEEDS: 'solana-logs' };

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.api.port).toBe(8000);
    expect(c.api.validateResponses).toBe(true);
    expect(c.price.refreshIntervalS).toBe(300);
    expect(c.expectedDaemons).toEqual(['api', 'worker']);
  });
  it('runs one API process in development and one per core in production unless API_PROCESSES says otherwise', () => {
    expect(loadConfig({}).api.processes).toBe(1);
    expect(loadConfig(PROD).api.processes).toBe(os.availableParallelism());
    expect(loadConfig({ ...PROD, API_PROCESSES: '3' }).api.processes).toBe(3);
    expect(() => loadConfig({ API_PROCESSES: '0' })).toThrow(/API_PROCESSES/);
  });
  it('tunes the worker with a bounded sticky cache and leaves unset poller counts to the SDK', () => {
    expect(loadConfig({}).worker).toEqual({
      maxCachedWorkflows: 1000,
      maxConcurrentWorkflowTaskExecutions: 40,
      maxConcurrentActivityTaskExecutions: 100,
      maxConcurrentWorkflowTaskPolls: undefined,
      maxConcurrentActivityTaskPolls: undefined,
    });
    expect(loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '0', WORKER_MAX_CONCURRENT_WORKFLOW_TASK_POLLS: '4' }).worker).toMatchObject({
      maxCachedWorkflows: 0,
      maxConcurrentWorkflowTaskPolls: 4,
    });
    expect(() => loadConfig({ WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '1' })).toThrow(/WORKER_MAX_CONCURRENT_WORKFLOW_TASKS/);
  });
  it('turns response validation off in production unless asked', () => {
    expect(loadConfig(PROD).api.validateResponses).toBe(false);
    expect(loadConfig({ ...PROD, VALIDATE_RESPONSES: 'true' }).api.validateResponses).toBe(true);
  });
  it('configures plan payments with safe defaults: no treasury, no burns, 5 s polls, 1 h intents', () => {
    expect(loadConfig({}).billing).toEqual({
      treasury: undefined,
      pollIntervalS: 5,
      intentWindowS: 3600,
      reminderLeadS: 259_200,
      outboxSweepS: 30,
      smtpUrl: undefined,
      smtpFrom: 'billing@localhost',
      burnShareBps: 0,
      tokensPerSol: null,
    });
    expect(loadConfig({ BURN_REVENUE_SHARE: '0.125' }).billing.burnShareBps).toBe(1250);
    expect(() => loadConfig({ TREASURY_ADDRESS: 'not-base58-0OIl' })).toThrow(/TREASURY_ADDRESS/);
    expect(() => loadConfig({ BURN_REVENUE_SHARE: '1.5' })).toThrow(/BURN_REVENUE_SHARE/);
    expect(() => loadConfig({ PAYMENT_INTENT_WINDOW_S: '10' })).toThrow(/PAYMENT_INTENT_WINDOW_S/);
  });
  it('offers paying with the holder token only at a positive rate, kept as the exact decimal, and only with a mint', () => {
    const mint = 'So11111111111111111111111111111111111111112';
    expect(loadConfig({ HOLDER_TOKEN_MINT: mint, TOKEN_PAYMENT_TOKENS_PER_SOL: '12345.678' }).billing.tokensPerSol).toBe('12345.678');
    expect(loadConfig({ HOLDER_TOKEN_MINT: mint, TOKEN_PAYMENT_TOKENS_PER_SOL: '0.000' }).billing.tokensPerSol).toBeNull();
    expect(loadConfig({ TOKEN_PAYMENT_TOKENS_PER_SOL: '0' }).billing.tokensPerSol).toBeNull();
    expect(loadConfig({ HOLDER_TOKEN_MINT: mint, TOKEN_PAYMENT_TOKENS_PER_SOL: '' }).billing.tokensPerSol).toBeNull();
    for (const bad of ['-5', '1e6', 'abc', '1,000'])
      expect(() => loadConfig({ HOLDER_TOKEN_MINT: mint, TOKEN_PAYMENT_TOKENS_PER_SOL: bad })).toThrow(/TOKEN_PAYMENT_TOKENS_PER_SOL/);
    expect(() => loadConfig({ TOKEN_PAYMENT_TOKENS_PER_SOL: '1000' })).toThrow(/TOKEN_PAYMENT_TOKENS_PER_SOL.*HOLDER_TOKEN_MINT/);
  });
  it('configures the messaging bot only with a well-formed token, and never echoes the token in the error', () => {
    expect(loadConfig({}).messaging).toEqual({ telegramBotToken: undefined, telegramApiRoot: 'https://api.telegram.org' });
    const token = '123456789:AAE-abcdefghijklmnopqrstuvwx';
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/' }).messaging).toEqual({
      telegramBotToken: token,
      telegramApiRoot: 'http://127.0.0.1:8081',
    });
    let message = '';
    try {
      loadConfig({ TELEGRAM_BOT_TOKEN: 'secret-without-bot-id' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/TELEGRAM_BOT_TOKEN/);
    expect(message).not.toContain('secret-without-bot-id');
  });
  it('treats an empty value as unset, as env files and compose interpolation leave it', () => {
    const c = loadConfig({ TREASURY_ADDRESS: '', TELEGRAM_BOT_TOKEN: '  ', API_PORT: '' });
    expect([c.billing.treasury, c.messaging.telegramBotToken, c.api.port]).toEqual([undefined, undefined, 8000]);
  });
  it('fails fast on a bad value, naming it', () => {
    expect(() => loadConfig({ API_PORT: 'eighty' })).toThrow(/API_PORT/);
    expect(() => loadConfig({ EXPECTED_DAEMONS: 'api,robot' })).toThrow(/EXPECTED_DAEMONS/);
  });
});

describe('production refuses simulated inputs unless DEMO_MODE=true', () => {
  it.each([
    ['the simulator feed (the default feed)', { INGEST_FEEDS: '' }, /INGEST_FEEDS: is simulator \(the simulated market\)/],
    ['the simulator beside a real feed', { INGEST_FEEDS: 'solana-logs,simulator' }, /INGEST_FEEDS/],
    ['the simulated perps exchange', { PERPS_EXCHANGE: 'simulator' }, /PERPS_EXCHANGE: is simulator/],
    ['the simulated SOL/USD price', { PRICE_SOURCE: 'simulator' }, /PRICE_SOURCE: is simulator/],
    ['the simulated metadata gateway', { METADATA_SOURCE: 'simulator' }, /METADATA_SOURCE: is simulator/],
    ['keyed endpoints without key checks', { API_AUTH_ENABLED: 'false' }, /API_AUTH_ENABLED: is false/],
  ])('refuses %s', (_what, env, message) => {
    expect(() => loadConfig({ ...PROD, ...env })).toThrow(message);
    expect(() => loadConfig({ ...PROD, ...env })).toThrow(/DEMO_MODE=true/);
    // The demo switch lets it start, and outside production nothing is refused.
    expect(() => loadConfig({ ...PROD, ...env, DEMO_MODE: 'true' })).not.toThrow();
    expect(() => loadConfig({ ...PROD, ...env, NODE_ENV: 'development' })).not.toThrow();
  });

  it('starts on real inputs in production', () => {
    const c = loadConfig(PROD);
    expect(c).toMatchObject({ demoMode: false, ingest: { feeds: ['solana-logs'] }, perps: { exchange: 'hyperliquid' }, price: { simulated: false } });
    expect(c.access.authEnabled).toBe(true);
  });

  it('sends ipfs:// metadata to the configured gateway, or the simulated one on loopback, and never lets production reach private hosts', () => {
    expect(loadConfig({}).metadata).toMatchObject({ enabled: true, ipfsGateway: 'https://ipfs.io', simulator: null, allowPrivateTargets: false });
    expect(loadConfig({ METADATA_SOURCE: 'simulator', METADATA_SIMULATOR_PORT: '8601' }).metadata).toMatchObject({
      ipfsGateway: 'http://127.0.0.1:8601',
      simulator: { port: 8601 },
    });
    expect(() => loadConfig({ ...PROD, METADATA_ALLOW_PRIVATE_TARGETS: 'true' })).toThrow(/METADATA_ALLOW_PRIVATE_TARGETS: never in production/);
  });
});
