import { clientBucket, DEFAULT_PUBLIC_POST_LIMITS, publicPostRateLimits } from '../../../domain/access/public-post-limits';
import { loadConfig } from '../../../platform/config';

describe('public POST limits', () => {
  it('counts IPv4 clients by address, IPv4-mapped IPv6 as IPv4, IPv6 by /64', () => {
    expect(clientBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(clientBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientBucket('2001:db8:5:7::1')).toBe('2001:db8:5:7::/64');
    expect(clientBucket('2001:0db8:0005:0007:ffff:1:2:3')).toBe('2001:db8:5:7::/64');
    expect(clientBucket('2001:db8:5:8::1')).not.toBe(clientBucket('2001:db8:5:7::1'));
    for (const bad of [undefined, '', 'not an ip', '999.1.1.1']) expect(clientBucket(bad)).toBe('unknown');
  });

  it('turns the settings into fixed windows, leaving out those set to 0', () => {
    expect(publicPostRateLimits(DEFAULT_PUBLIC_POST_LIMITS).map((l) => [l.name, l.scope, l.points, l.windowS])).toEqual([
      ['post_client_1m', 'client', 10, 60],
      ['post_client_1h', 'client', 60, 3600],
      ['post_global_1m', 'global', 120, 60],
      ['post_global_1h', 'global', 1000, 3600],
    ]);
    expect(publicPostRateLimits({ perClientPerMinute: 0, perClientPerHour: 5, globalPerMinute: 0, globalPerHour: 0 }).map((l) => l.name)).toEqual([
      'post_client_1h',
    ]);
  });

  it('reads the limits from the configuration, defaults as documented, bad values refused by name', () => {
    expect(loadConfig({}).access.publicPostLimits).toEqual(DEFAULT_PUBLIC_POST_LIMITS);
    expect(loadConfig({ PUBLIC_POST_PER_CLIENT_PER_MINUTE: '3', PUBLIC_POST_GLOBAL_PER_HOUR: '0' }).access.publicPostLimits).toMatchObject({
      perClientPerMinute: 3,
      globalPerHour: 0,
    });
    expect(() => loadConfig({ PUBLIC_POST_PER_CLIENT_PER_HOUR: '-1' })).toThrow(/PUBLIC_POST_PER_CLIENT_PER_HOUR/);
    expect(() => loadConfig({ PUBLIC_POST_GLOBAL_PER_MINUTE: 'many' })).toThrow(/PUBLIC_POST_GLOBAL_PER_MINUTE/);
  });
});
