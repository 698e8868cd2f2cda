// Shipping's settings (decision 065): the fee, the promised date and its compensation, the desk's CSV import.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const shippingSettings = declareSettings({
  title: 'Shipping',
  shape: {
    /** Coins a shipping request costs (a ledger entry; refunded when the request is canceled). */
    SHIPPING_FEE_COINS: z.coerce.number().int().min(0).max(1_000_000).default(0),
    /** The fewest prizes one shipping request may hold. */
    SHIPPING_MIN_PRIZES: z.coerce.number().int().min(1).max(200).default(1),
    /** 発送予定日: business days after the acceptance day (weekends, holidays and closed days not counted). */
    SHIPPING_BUSINESS_DAYS: z.coerce.number().int().min(0).max(60).default(5),
    /** The shop's own closed days (年末年始, 夏季休業…), comma-separated JST dates YYYY-MM-DD. */
    SHIPPING_CLOSED_DAYS: z
      .string()
      .default('')
      .transform((text, context) => {
        const days = text
          .split(',')
          .map((day) => day.trim())
          .filter(Boolean);
        for (const day of days) {
          const [year, month, date] = day.split('-').map(Number);
          const real = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 0));
          if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || real.toISOString().slice(0, 10) !== day)
            context.addIssue({ code: 'custom', message: `${day} is not a date YYYY-MM-DD` });
        }
        return [...new Set(days)].sort();
      }),
    /** Requests from this hour (Japan time) on are accepted on the next business day. */
    SHIPPING_CUTOFF_HOUR: z.coerce.number().int().min(0).max(24).default(15),
    /** Free coins a member gets, once, when a request has not shipped by the end of its 発送予定日 (0: none). */
    SHIPPING_LATE_COMPENSATION_COINS: z.coerce.number().int().min(0).max(1_000_000).default(100),
    /**
     * The desk's shipped-CSV import: the largest file (bytes) and the most rows one import may hold. The
     * request body limit (256 KiB) caps the file, so the setting stays below it.
     */
    SHIPPING_CSV_MAX_BYTES: z.coerce.number().int().min(1_000).max(240_000).default(200_000),
    SHIPPING_CSV_MAX_ROWS: z.coerce.number().int().min(1).max(10_000).default(2_000),
  },
  docs: {
    SHIPPING_FEE_COINS: {
      meaning:
        'coins a shipping request costs (a ledger entry; given back as coins of the same kinds when the request is canceled)',
    },
    SHIPPING_MIN_PRIZES: { meaning: 'the fewest prizes one shipping request may hold' },
    SHIPPING_BUSINESS_DAYS: {
      meaning:
        '発送予定日: this many business days after the acceptance day (weekends, Japanese public holidays and ' +
        '`SHIPPING_CLOSED_DAYS` not counted)',
    },
    SHIPPING_CLOSED_DAYS: {
      default: '(none)',
      allowed: 'comma-separated JST dates `YYYY-MM-DD`',
      meaning:
        "the shop's own closed days (`2027-12-29,2027-12-30,2027-12-31,2028-01-02,2028-01-03` for 年末年始: 1/2 and " +
        '1/3 are not public holidays)',
    },
    SHIPPING_CUTOFF_HOUR: {
      meaning: 'a request from this hour (Japan time) on, or on a closed day, is accepted on the next business day',
    },
    SHIPPING_LATE_COMPENSATION_COINS: {
      meaning:
        'free coins a member gets, once, when a request has not shipped by the end (24:00 JST) of its 発送予定日 ' +
        '(`shipping.compensate-late`); `0` turns it off',
    },
    SHIPPING_CSV_MAX_BYTES: {
      meaning: 'the largest shipped-CSV file the desk imports (bytes; the request body limit is 256 KiB)',
    },
    SHIPPING_CSV_MAX_ROWS: { meaning: 'the most rows one shipped-CSV import may hold' },
  },
});
