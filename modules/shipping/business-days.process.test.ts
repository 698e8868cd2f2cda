// The promised shipping date on servers in other time zones: the golden table computed again in a Node
// process per zone (a subprocess test: the process tier).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaledTimeout } from '#tests/settings';
import { GOLDEN } from './testing';

describe('on servers in other time zones', () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  // A fresh Node process per zone: TZ is read at start, before any module (the holiday package
  // included) is loaded, exactly as on a server started with TZ=UTC.
  const probe = `
    const days = await import('./modules/shipping/business-days.ts');
    const cases = JSON.parse(process.env.GOLDEN_CASES);
    const answers = cases.map((c) => [
      days.shippingAcceptanceDate(new Date(c.requestedAt), c.rules),
      days.promisedShipDate(new Date(c.requestedAt), c.rules),
    ]);
    console.log(JSON.stringify({
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      offsetMinutes: new Date('2027-06-07T12:00:00Z').getTimezoneOffset(),
      answers,
      holiday: days.isBusinessDay('2027-04-29', []),
      deadline: days.shipDeadlineInstant('2027-05-10').toISOString(),
    }));
  `;
  const runIn = (zone: string) =>
    new Promise<{ zone: string; offsetMinutes: number; answers: string[][]; holiday: boolean; deadline: string }>(
      (resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '--eval', probe],
          {
            cwd: root,
            env: { ...process.env, TZ: zone, GOLDEN_CASES: JSON.stringify(GOLDEN) },
            timeout: scaledTimeout(60_000),
          },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
        );
      },
    );

  it.each([
    { zone: 'UTC', offsetMinutes: 0 },
    { zone: 'Asia/Tokyo', offsetMinutes: -540 },
    { zone: 'America/Los_Angeles', offsetMinutes: 420 },
  ])(
    'gives the Japanese answers with TZ=$zone',
    async ({ zone, offsetMinutes }) => {
      const result = await runIn(zone);
      // The process really ran in that zone (so a Date's local fields there are not Japan's)…
      expect(result.zone).toBe(zone);
      expect(result.offsetMinutes).toBe(offsetMinutes);
      // …and still answered in Japanese calendar days.
      expect(result.answers).toEqual(GOLDEN.map((c) => [c.acceptance, c.promised]));
      expect(result.holiday).toBe(false);
      expect(result.deadline).toBe('2027-05-10T15:00:00.000Z');
    },
    scaledTimeout(60_000),
  );
});
