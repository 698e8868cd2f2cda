// Who may scrape /metrics: the bearer token, or a connection straight from an allowed address; never a
// request a proxy forwarded, whatever address it came from; nobody when neither setting is given.
import { describe, it, expect } from 'vitest';
import { metricsAccess } from './metrics-access';
import { parseAddressList, type AddressBlock } from './address-list';

const TOKEN = 'scrape-token-scrape-token-0123456789';
const headers = (entries: Record<string, string> = {}) => new Headers(entries);

describe('metrics access', () => {
  it('is off without a token and without an allow-list', () => {
    const access = metricsAccess({});
    expect(access.enabled).toBe(false);
    expect(access.allows(headers({ authorization: `Bearer ${TOKEN}` }), '127.0.0.1')).toBe(false);
  });

  it('lets in the bearer of the token, from anywhere, and nobody with another token', () => {
    const access = metricsAccess({ METRICS_TOKEN: TOKEN });
    expect(access.enabled).toBe(true);
    expect(access.allows(headers({ authorization: `Bearer ${TOKEN}` }), '203.0.113.9')).toBe(true);
    expect(
      access.allows(headers({ authorization: `bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' }), '10.0.0.2'),
    ).toBe(true);
    expect(access.allows(headers({ authorization: `Bearer ${TOKEN}x` }), '203.0.113.9')).toBe(false);
    expect(access.allows(headers({ authorization: `Bearer ${TOKEN.slice(0, -1)}` }), '203.0.113.9')).toBe(false);
    expect(access.allows(headers({ authorization: TOKEN }), '203.0.113.9')).toBe(false);
    expect(access.allows(headers(), '127.0.0.1')).toBe(false);
  });

  it('lets in a scraper connecting from an allowed address, but never through a proxy', () => {
    const access = metricsAccess({ METRICS_ALLOW: parseAddressList('10.0.8.0/24') as AddressBlock[] });
    expect(access.enabled).toBe(true);
    expect(access.allows(headers(), '10.0.8.5')).toBe(true);
    expect(access.allows(headers(), '::ffff:10.0.8.5')).toBe(true);
    expect(access.allows(headers(), '10.0.9.5')).toBe(false);
    // The load balancer sits in the allowed network: what it forwards is not let in by its address.
    for (const forwarded of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'])
      expect(access.allows(headers({ [forwarded]: '203.0.113.9' }), '10.0.8.1')).toBe(false);
  });
});
