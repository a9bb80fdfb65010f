import { loadConfig } from '../../platform/config';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.api.port).toBe(8000);
    expect(c.api.validateResponses).toBe(true);
    expect(c.price.refreshIntervalS).toBe(300);
    expect(c.expectedDaemons).toEqual(['api', 'worker']);
  });
  it('turns response validation off in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).api.validateResponses).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', VALIDATE_RESPONSES: 'true' }).api.validateResponses).toBe(true);
  });
  it('fails fast on a bad value, naming it', () => {
    expect(() => loadConfig({ API_PORT: 'eighty' })).toThrow(/API_PORT/);
    expect(() => loadConfig({ EXPECTED_DAEMONS: 'api,robot' })).toThrow(/EXPECTED_DAEMONS/);
  });
});
