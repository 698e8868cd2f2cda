// METRICS_ALLOW's reading and matching: blocks and plain addresses, IPv4-mapped IPv6, and clear refusals.
import { describe, it, expect } from 'vitest';
import { addressMatcher, parseAddressList, type AddressBlock } from './address-list';

const matcher = (text: string) => addressMatcher(parseAddressList(text) as AddressBlock[]);

describe('METRICS_ALLOW', () => {
  it('reads blocks and plain addresses, IPv4 and IPv6', () => {
    expect(parseAddressList(' 10.0.8.0/24 , 127.0.0.1, fd00::/64 ')).toEqual([
      { network: '10.0.8.0', prefix: 24, family: 'ipv4' },
      { network: '127.0.0.1', prefix: 32, family: 'ipv4' },
      { network: 'fd00::', prefix: 64, family: 'ipv6' },
    ]);
  });

  it('says what is wrong with a bad entry', () => {
    expect(parseAddressList('10.0.0.0/33')).toBe('10.0.0.0/33: the prefix must be a whole number from 0 to 32');
    expect(parseAddressList('prometheus.internal')).toBe('prometheus.internal is not an address or a CIDR block');
    expect(parseAddressList('10.0.0.0/8/1')).toBe('10.0.0.0/8/1 is not an address or a CIDR block');
    expect(parseAddressList('10.0.0.0/x')).toContain('the prefix must be a whole number');
    expect(parseAddressList(' , ')).toBe('name at least one address or CIDR block');
  });

  it('matches the connection address as a socket reports it, IPv4-mapped ones included', () => {
    const allowed = matcher('10.0.8.0/24,::1');
    expect(allowed('10.0.8.17')).toBe(true);
    expect(allowed('::ffff:10.0.8.17')).toBe(true);
    expect(allowed('::1')).toBe(true);
    expect(allowed('10.0.9.1')).toBe(false);
    expect(allowed('127.0.0.1')).toBe(false);
    expect(allowed(undefined)).toBe(false);
    expect(allowed('not-an-address')).toBe(false);
  });
});
