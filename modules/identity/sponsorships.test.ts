// When a sponsorship labels something (decision 083): a win at a moment inside a span, a ranking period that
// overlaps one; a span's start counts, its end does not.
import { describe, expect, it } from 'vitest';
import { sponsoredAt, sponsoredDuring, type SponsorshipSpan } from './sponsorships';

const at = (iso: string) => new Date(iso);
const spans: SponsorshipSpan[] = [
  { kind: 'streamer', startedAt: at('2026-11-01T00:00:00Z'), endedAt: at('2026-11-10T00:00:00Z') },
  { kind: 'affiliate', startedAt: at('2026-11-20T00:00:00Z'), endedAt: null },
];

describe('sponsorship spans', () => {
  it('cover a moment from their start, up to (not including) their end, and forever while open', () => {
    expect(sponsoredAt(spans, at('2026-11-01T00:00:00Z'))).toBe(true);
    expect(sponsoredAt(spans, at('2026-11-09T23:59:59Z'))).toBe(true);
    expect(sponsoredAt(spans, at('2026-11-10T00:00:00Z'))).toBe(false);
    expect(sponsoredAt(spans, at('2026-10-31T23:59:59Z'))).toBe(false);
    expect(sponsoredAt(spans, at('2027-05-01T00:00:00Z'))).toBe(true);
    expect(sponsoredAt(undefined, at('2026-11-05T00:00:00Z'))).toBe(false);
  });

  it('label a period they overlap at all', () => {
    expect(sponsoredDuring(spans, at('2026-11-09T00:00:00Z'), at('2026-11-16T00:00:00Z'))).toBe(true);
    expect(sponsoredDuring(spans, at('2026-11-10T00:00:00Z'), at('2026-11-17T00:00:00Z'))).toBe(false);
    expect(sponsoredDuring(spans, at('2026-11-17T00:00:00Z'), at('2026-11-24T00:00:00Z'))).toBe(true);
    expect(sponsoredDuring(spans, at('2026-10-01T00:00:00Z'), at('2026-11-01T00:00:00Z'))).toBe(false);
    expect(sponsoredDuring([], at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toBe(false);
  });
});
