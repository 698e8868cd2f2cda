// Shipping test data shared by the business-day tests in this process and in child processes (tests only).
import type { ShippingDateRules } from './business-days';

export const rules = (overrides: Partial<ShippingDateRules> = {}): ShippingDateRules => ({
  businessDays: 5,
  closedDays: [],
  cutoffHour: 15,
  ...overrides,
});

/** A shop closed for 年末年始 from 12/29 to 1/3: 1/2 and 1/3 are not public holidays, so only this list closes them. */
export const NEW_YEAR_CLOSED = ['2027-12-29', '2027-12-30', '2027-12-31', '2028-01-02', '2028-01-03'];

/**
 * The golden table, written in Japan time. Each case is also computed in child processes whose zone is
 * UTC, Asia/Tokyo and America/Los_Angeles (below): the answers must not depend on the server's zone.
 */
export const GOLDEN: {
  name: string;
  requestedAt: string;
  rules: ShippingDateRules;
  acceptance: string;
  promised: string;
}[] = [
  {
    // 4/28 W (1), 4/29 昭和の日, 4/30 F (2), weekend, 5/3–5/5 holidays, 5/6 (3), 5/7 (4), 5/10 (5).
    name: 'Golden Week 2027: requested Tuesday morning before it',
    requestedAt: '2027-04-27T10:00:00+09:00',
    rules: rules(),
    acceptance: '2027-04-27',
    promised: '2027-05-10',
  },
  {
    name: 'Golden Week 2027: requested after the cut-off on the eve of 昭和の日, accepted on 4/30',
    requestedAt: '2027-04-28T16:00:00+09:00',
    rules: rules(),
    acceptance: '2027-04-30',
    promised: '2027-05-12',
  },
  {
    name: 'Golden Week 2027: requested on 昭和の日 itself',
    requestedAt: '2027-04-29T09:00:00+09:00',
    rules: rules(),
    acceptance: '2027-04-30',
    promised: '2027-05-12',
  },
  {
    name: 'Golden Week 2027: requested on Saturday 5/1, accepted on Thursday 5/6',
    requestedAt: '2027-05-01T10:00:00+09:00',
    rules: rules(),
    acceptance: '2027-05-06',
    promised: '2027-05-13',
  },
  {
    name: 'a Saturday request counts from Monday',
    requestedAt: '2027-06-05T11:00:00+09:00',
    rules: rules(),
    acceptance: '2027-06-07',
    promised: '2027-06-14',
  },
  {
    // Monday 23:59 in Japan is 14:59 UTC the same day: a server reading UTC hours would take it as before 15:00.
    name: 'Monday 23:59 in Japan is after the cut-off',
    requestedAt: '2027-06-07T23:59:00+09:00',
    rules: rules(),
    acceptance: '2027-06-08',
    promised: '2027-06-15',
  },
  {
    // Tuesday 00:01 in Japan is still Monday (15:01) in UTC.
    name: 'Tuesday 00:01 in Japan is Tuesday, before the cut-off',
    requestedAt: '2027-06-08T00:01:00+09:00',
    rules: rules(),
    acceptance: '2027-06-08',
    promised: '2027-06-15',
  },
  {
    name: 'Friday 14:59 is accepted that day',
    requestedAt: '2027-06-11T14:59:59+09:00',
    rules: rules(),
    acceptance: '2027-06-11',
    promised: '2027-06-18',
  },
  {
    name: 'Friday 15:00 (the cut-off) is accepted on Monday',
    requestedAt: '2027-06-11T15:00:00+09:00',
    rules: rules(),
    acceptance: '2027-06-14',
    promised: '2027-06-21',
  },
  {
    // 12/29 (1), 12/30 (2), 12/31 (3), 1/1 元日 (Saturday), 1/2 Sunday, 1/3 Monday (4): not a public holiday.
    name: 'New Year 2027–28 without closed days: 1/3 (Monday) is a business day',
    requestedAt: '2027-12-28T10:00:00+09:00',
    rules: rules(),
    acceptance: '2027-12-28',
    promised: '2028-01-04',
  },
  {
    // Closed 12/29–1/3: 1/4 (1), 1/5 (2), 1/6 (3), 1/7 (4), 1/10 成人の日, 1/11 (5).
    name: 'New Year 2027–28 with the shop closed 12/29–1/3',
    requestedAt: '2027-12-28T10:00:00+09:00',
    rules: rules({ closedDays: NEW_YEAR_CLOSED }),
    acceptance: '2027-12-28',
    promised: '2028-01-11',
  },
  {
    name: 'New Year: a request on 12/31 while closed is accepted on 1/4',
    requestedAt: '2027-12-31T09:00:00+09:00',
    rules: rules({ closedDays: NEW_YEAR_CLOSED }),
    acceptance: '2028-01-04',
    promised: '2028-01-12',
  },
  {
    name: '0 business days: the acceptance day itself',
    requestedAt: '2027-04-28T16:00:00+09:00',
    rules: rules({ businessDays: 0 }),
    acceptance: '2027-04-30',
    promised: '2027-04-30',
  },
  {
    name: 'cut-off 24: a late request on a business day is accepted that day',
    requestedAt: '2027-06-07T23:59:00+09:00',
    rules: rules({ cutoffHour: 24, businessDays: 1 }),
    acceptance: '2027-06-07',
    promised: '2027-06-08',
  },
  {
    name: 'cut-off 0: every request counts from the next business day',
    requestedAt: '2027-06-07T00:00:00+09:00',
    rules: rules({ cutoffHour: 0, businessDays: 1 }),
    acceptance: '2027-06-08',
    promised: '2027-06-09',
  },
];
