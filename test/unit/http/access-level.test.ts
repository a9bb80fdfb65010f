import { accessLevel } from '../../../api/http/access-log';

const settings = { slowMs: 500, sample: 0.01 };
const never = () => 0.99;
const always = () => 0;

describe('access log level', () => {
  it('logs server errors at error, except a 503 (an outage the error handler logs once per cause)', () => {
    expect(accessLevel({ status: 500, ms: 1 }, false, settings, never)).toBe('error');
    expect(accessLevel({ status: 502, ms: 1 }, false, settings, never)).toBe('error');
    expect(accessLevel({ status: 503, ms: 1 }, false, settings, never)).toBeUndefined();
  });

  it('logs slow requests at info whatever the sample', () => {
    expect(accessLevel({ status: 200, ms: 500 }, false, settings, never)).toBe('info');
    expect(accessLevel({ status: 422, ms: 499 }, false, settings, never)).toBeUndefined();
  });

  it('logs a sample of the rest at info, and every request at debug', () => {
    expect(accessLevel({ status: 200, ms: 3 }, false, settings, always)).toBe('info');
    expect(accessLevel({ status: 200, ms: 3 }, false, { ...settings, sample: 0 }, always)).toBeUndefined();
    expect(accessLevel({ status: 404, ms: 3 }, true, { ...settings, sample: 0 }, never)).toBe('debug');
  });
});
