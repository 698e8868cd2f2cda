// Who may read /metrics (decision 072): a request with the operators' bearer token, or a scraper
// connecting straight from an allowed address. Anyone else gets the answer of an unknown page, so
// the endpoint is not even seen to exist; with neither setting, nobody may.
import crypto from 'node:crypto';
import { hasForwardingHeaders } from '../security';
import { addressMatcher, type AddressBlock } from './address-list';

export interface MetricsAccess {
  /** Whether anyone may scrape at all (a token or an allow-list is set). */
  readonly enabled: boolean;
  /** Whether this request may: its headers, and the address of the connection it came on. */
  allows(headers: Headers, connectionAddress: string | undefined): boolean;
}

const digest = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/**
 * @example metricsAccess({ METRICS_TOKEN: token }).allows(new Headers({ authorization: `Bearer ${token}` }), '203.0.113.9') === true
 */
export function metricsAccess(settings: {
  METRICS_TOKEN?: string;
  METRICS_ALLOW?: readonly AddressBlock[];
}): MetricsAccess {
  // Compared as digests of equal length in constant time: the answer's timing tells nothing of the token.
  const token = settings.METRICS_TOKEN ? digest(settings.METRICS_TOKEN) : undefined;
  const allowed = settings.METRICS_ALLOW?.length ? addressMatcher(settings.METRICS_ALLOW) : undefined;
  return {
    enabled: Boolean(token || allowed),
    allows(headers, connectionAddress) {
      if (token) {
        const presented = /^Bearer +(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1];
        if (presented && crypto.timingSafeEqual(digest(presented), token)) return true;
      }
      // The connection's own address, and only for a request no proxy forwarded: through the load
      // balancer every request comes from the balancer's address, which must not open the door.
      return Boolean(allowed && !hasForwardingHeaders(headers) && allowed(connectionAddress));
    },
  };
}
