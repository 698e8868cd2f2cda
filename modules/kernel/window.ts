// Sale and visibility windows (genres, coin packs, home banners): an optional start and end, typed by
// operators in Japan time (the specification's time zone, Asia/Tokyo, no daylight saving time) and
// compared at read time — `starts_at <= now < ends_at` — so nothing has to switch at the edges.
import { z } from 'zod';

/** A window as stored: either edge may be open (null). */
export interface SaleWindow {
  startsAt: Date | null;
  endsAt: Date | null;
}

/** A time typed in Japan time without an offset (`2027-01-05T15:00`, the form's datetime-local). */
const JST_LOCAL = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/;

/**
 * Reads a time typed in Japan time (no offset written) or with an explicit offset; null when it is
 * not a real time (2027-02-31 is refused, not rolled over).
 * @example parseJstDateTime('2027-01-05T15:00')?.toISOString() // '2027-01-05T06:00:00.000Z'
 */
export function parseJstDateTime(text: string): Date | null {
  const trimmed = text.trim();
  const iso = JST_LOCAL.test(trimmed) ? `${trimmed.replace(' ', 'T')}+09:00` : trimmed;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso)) return null;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  const day = new Date(time + 9 * 3600_000).toISOString().slice(0, 10);
  return JST_LOCAL.test(trimmed) && day !== trimmed.slice(0, 10) ? null : new Date(time);
}

/**
 * A time as the form's datetime-local field shows it, in Japan time; '' for none.
 * @example jstLocalInput(new Date('2027-01-05T06:00:00Z')) // '2027-01-05T15:00'
 */
export const jstLocalInput = (date: Date | string | null | undefined): string =>
  date ? new Date(new Date(date).getTime() + 9 * 3600_000).toISOString().slice(0, 16) : '';

const JST_TEXT = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * A time as people read it, in Japan time.
 * @example jstText(new Date('2027-01-05T06:00:00Z')) // '2027/1/5 15:00'
 */
export function jstText(date: Date | string): string {
  const p = Object.fromEntries(JST_TEXT.formatToParts(new Date(date)).map((part) => [part.type, part.value]));
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

/** Where `now` stands against a window: before it opens, inside, or after it closed. */
export function windowPhase(window: SaleWindow, now: Date): 'before' | 'open' | 'after' {
  if (window.startsAt && now.getTime() < window.startsAt.getTime()) return 'before';
  if (window.endsAt && now.getTime() >= window.endsAt.getTime()) return 'after';
  return 'open';
}

/** @example isWithinWindow({ startsAt: null, endsAt: null }, new Date()) // true */
export const isWithinWindow = (window: SaleWindow, now: Date): boolean => windowPhase(window, now) === 'open';

/**
 * The window in words for an operator's list: 「2027/1/5 15:00〜2027/1/31 23:59」, 「常時」 when open-ended.
 * @example windowText({ startsAt: null, endsAt: null }) // '常時'
 */
export function windowText(window: { startsAt: Date | string | null; endsAt: Date | string | null }): string {
  if (!window.startsAt && !window.endsAt) return '常時';
  return `${window.startsAt ? jstText(window.startsAt) : ''}〜${window.endsAt ? jstText(window.endsAt) : ''}`;
}

const jstField = (label: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const trimmed = (text ?? '').trim();
      if (trimmed === '') return null;
      const date = parseJstDateTime(trimmed);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: `${label}は「2027-01-05T15:00」の形（日本時間）で入力してください。` });
        return z.NEVER;
      }
      return date;
    });

/**
 * The two form fields of a window (`startsAt`, `endsAt`, datetime-local in Japan time, empty for open);
 * merge into a form schema and check the order with {@link refineWindow}.
 */
export const saleWindowFields = {
  startsAt: jstField('開始日時'),
  endsAt: jstField('終了日時'),
};

/** The end must come after the start (a form schema's superRefine). */
export function refineWindow(value: SaleWindow, ctx: z.RefinementCtx): void {
  if (value.startsAt && value.endsAt && value.endsAt.getTime() <= value.startsAt.getTime())
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: '終了日時は開始日時より後にしてください。' });
}
