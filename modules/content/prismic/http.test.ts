// Retry-After as the specification reads it: seconds or an HTTP date, 1000 ms when absent or unreadable.
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './http';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  it('reads seconds and HTTP dates, and defaults to 1000 ms', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 0.5 ', now)).toBe(500);
    expect(retryAfterMs('Tue, 24 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Tue, 24 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(1000);
    expect(retryAfterMs('', now)).toBe(1000);
    expect(retryAfterMs('soon', now)).toBe(1000);
  });
});
