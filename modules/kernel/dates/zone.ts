// Tokyo-zoned dates for the server's period arithmetic (rankings, ranks): a `TZDate` whose getters and
// date-fns functions work in Tokyo time. Apart from ./shop-dates so the browser's pages never load @date-fns/tz
// (its module code patches Date's methods, so no bundler can drop it once imported; issue 17).
import { TZDate } from '@date-fns/tz';
import { startOfDay, startOfMonth, startOfWeek } from 'date-fns';
import { SHOP_TIME_ZONE, toTime, type ShopDateInput } from './shop-dates';

/**
 * The instant as a `TZDate` in Asia/Tokyo, or null when the input is invalid. Its getters
 * (`getHours()`, `getDate()`, …) and date-fns functions applied to it work in Tokyo time.
 * Strings without an offset are read as Tokyo time.
 * @example toShopZone('2026-11-21T15:00:00Z')?.getDate() // 22
 */
export function toShopZone(input: ShopDateInput): TZDate | null {
  const time = toTime(input);
  return Number.isNaN(time) ? null : new TZDate(time, SHOP_TIME_ZONE);
}

// The period starts are computed on a TZDate so "midnight" and "Monday" are Tokyo's, then
// returned as plain Date instants for storage and comparison. Invalid input gives an Invalid
// Date (getTime() is NaN) rather than throwing; the formatters above turn that into ''.
function startOfShop(input: ShopDateInput, startOf: (date: TZDate) => TZDate): Date {
  const zoned = toShopZone(input);
  return new Date(zoned ? startOf(zoned).getTime() : Number.NaN);
}

/**
 * 00:00 Tokyo time of the input's Tokyo day.
 * @example startOfShopDay('2026-11-22T15:30:00Z').toISOString() // '2026-11-22T15:00:00.000Z' (23 Nov 00:00 JST)
 */
export function startOfShopDay(input: ShopDateInput): Date {
  return startOfShop(input, (d) => startOfDay(d));
}

/**
 * Monday 00:00 Tokyo time of the input's Tokyo week.
 * @example startOfShopWeek('2026-11-22T14:30:00Z').toISOString() // '2026-11-15T15:00:00.000Z' (Mon 16 Nov 00:00 JST)
 */
export function startOfShopWeek(input: ShopDateInput): Date {
  return startOfShop(input, (d) => startOfWeek(d, { weekStartsOn: 1 }));
}

/**
 * The 1st, 00:00 Tokyo time, of the input's Tokyo month.
 * @example startOfShopMonth('2026-11-30T15:00:00Z').toISOString() // '2026-11-30T15:00:00.000Z' (1 Dec 00:00 JST)
 */
export function startOfShopMonth(input: ShopDateInput): Date {
  return startOfShop(input, (d) => startOfMonth(d));
}
