// Maintenance mode: the switch (one row, shop_state), its exact check for the money paths, and the
// short per-instance cache every other path reads (docs/decisions/025).
import { isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { shopClosures, shopState } from './schema';

/** What members are shown when the operator wrote no message of their own. */
export const DEFAULT_MAINTENANCE_MESSAGE =
  'ただいまメンテナンス中です。ガチャ・コインの購入・獲得商品の交換や発送のお申し込みなどは、終了までお待ちください。閲覧はいつもどおりご利用いただけます。';

/** The longest message an operator may write (the banner stays a banner). */
export const MAINTENANCE_MESSAGE_MAX_LENGTH = 300;

/** The one refusal of a member's write while maintenance is on (refusal-words.ts: 503 with Retry-After). */
export const MAINTENANCE_REFUSAL_CODES = ['MAINTENANCE'] as const;
export type MaintenanceRefusalCode = (typeof MAINTENANCE_REFUSAL_CODES)[number];

/** What switching can refuse (the form's and the command line's input). */
export const MAINTENANCE_SETTING_REFUSAL_CODES = ['MAINTENANCE_END_IN_PAST'] as const;
export type MaintenanceSettingRefusalCode = (typeof MAINTENANCE_SETTING_REFUSAL_CODES)[number];

export interface MaintenanceState {
  on: boolean;
  /** The operator's own message, or null (members then see DEFAULT_MAINTENANCE_MESSAGE). */
  customMessage: string | null;
  /** What members are shown: the operator's message or the default. */
  message: string;
  /** The planned end (shown in Japan time), or null. */
  endsAt: Date | null;
  changedBy: string | null;
  changedAt: Date | null;
  /**
   * The announced closure's dates (decision 085), for the banner every page shows; read with the switch so the
   * same per-instance cache serves both. The money paths read the closure in their own transactions.
   */
  closure: { salesStopAt: Date; refundDeadline: Date } | null;
}

const OPEN: MaintenanceState = {
  on: false,
  customMessage: null,
  message: DEFAULT_MAINTENANCE_MESSAGE,
  endsAt: null,
  changedBy: null,
  changedAt: null,
  closure: null,
};

/** A time typed in Japan time without an offset (`2027-01-05T15:00`, the form's datetime-local) or with one. */
const JST_LOCAL = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/;

/**
 * Reads a planned end: Japan time when no offset is written (Japan has no daylight saving time).
 * @example parseShopDateTime('2027-01-05T15:00')?.toISOString() // '2027-01-05T06:00:00.000Z'
 */
export function parseShopDateTime(text: string): Date | null {
  const trimmed = text.trim();
  const iso = JST_LOCAL.test(trimmed) ? `${trimmed.replace(' ', 'T')}+09:00` : trimmed;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso)) return null;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  // 2027-02-31 parses as March 3rd: refuse a date that does not exist.
  const day = new Date(time + 9 * 3600_000).toISOString().slice(0, 10);
  return JST_LOCAL.test(trimmed) && day !== trimmed.slice(0, 10) ? null : new Date(time);
}

const END_FORMAT = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * The planned end as members read it, in Japan time (the banner, the refusal's message, the admin page).
 * @example maintenanceEndText(new Date('2027-01-05T06:00:00Z')) // '2027年1月5日(火) 15:00'
 */
export function maintenanceEndText(endsAt: Date | string): string {
  const parts = Object.fromEntries(END_FORMAT.formatToParts(new Date(endsAt)).map((p) => [p.type, p.value]));
  return `${parts.year}年${parts.month}月${parts.day}日(${parts.weekday}) ${parts.hour}:${parts.minute}`;
}

/** The switch as an operator sets it: the form and the command line read the same schema. */
export const maintenanceSettingSchema = z.object({
  on: z.boolean(),
  message: z
    .string()
    .trim()
    .max(MAINTENANCE_MESSAGE_MAX_LENGTH, `お知らせ文は${MAINTENANCE_MESSAGE_MAX_LENGTH}文字以内にしてください。`)
    .transform((text) => (text === '' ? null : text))
    .nullable()
    .default(null),
  endsAt: z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return null;
      const date = parseShopDateTime(text);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: '終了予定は「2027-01-05 15:00」の形（日本時間）で入力してください。' });
        return z.NEVER;
      }
      return date;
    })
    .nullable()
    .default(null),
});
export type MaintenanceSetting = z.output<typeof maintenanceSettingSchema>;

function stateOf(
  row: typeof shopState.$inferSelect | undefined,
  closure: MaintenanceState['closure'] = null,
): MaintenanceState {
  if (!row) return { ...OPEN, closure };
  return {
    closure,
    on: row.maintenance,
    customMessage: row.maintenanceMessage,
    message: row.maintenanceMessage ?? DEFAULT_MAINTENANCE_MESSAGE,
    endsAt: row.maintenanceEndsAt,
    changedBy: row.changedBy,
    changedAt: row.changedAt,
  };
}

/**
 * The switch as stored now (one primary-key read). Hot paths read it through createMaintenanceCache.
 * @example const { on, message, endsAt } = await readMaintenance(db)
 */
export async function readMaintenance(db: Database): Promise<MaintenanceState> {
  // One read for both (the switch's row may be missing while a closure is live): the live closure's dates as
  // subqueries beside the switch's row, which is left-joined to a one-row constant.
  const live = (column: typeof shopClosures.salesStopAt | typeof shopClosures.refundDeadline) =>
    sql`(select ${column} from ${shopClosures} where ${isNull(shopClosures.cancelledAt)} limit 1)`.mapWith(column);
  const [read] = await db
    .select({
      state: shopState,
      salesStopAt: live(shopClosures.salesStopAt),
      refundDeadline: live(shopClosures.refundDeadline),
    })
    .from(sql`(select 1) as one`)
    .leftJoin(shopState, sql`true`)
    .limit(1);
  const closure =
    read?.salesStopAt && read.refundDeadline
      ? { salesStopAt: new Date(read.salesStopAt), refundDeadline: new Date(read.refundDeadline) }
      : null;
  return stateOf(read?.state ?? undefined, closure);
}

/**
 * The exact check of a money path, inside the caller's transaction: the MAINTENANCE refusal (with the
 * planned end and the message for the API's details) when maintenance is on as of this statement, else
 * null. The draw does the same in its SQL (shop_in_maintenance()).
 * @example const closed = await maintenanceRefusal(tx); if (closed) throw new RefusalError(closed)
 */
export async function maintenanceRefusal(tx: Database): Promise<Refusal<MaintenanceRefusalCode> | null> {
  const [row] = await queryRows<{ on: boolean }>(tx, sql`select shop_in_maintenance() as on`);
  if (!row?.on) return null;
  return refuse('MAINTENANCE', maintenanceDetails(await readMaintenance(tx)));
}

/** The MAINTENANCE refusal's details (what the API's answer and the pages' message may name). */
export function maintenanceDetails(state: MaintenanceState): { endsAt: string | null; notice: string | null } {
  return { endsAt: state.endsAt ? state.endsAt.toISOString() : null, notice: state.customMessage };
}

/**
 * What switching would refuse (the admin page's confirmation asks it before anything is written).
 * @example maintenanceSettingRefusal({ on: true, message: null, endsAt: new Date(0) }, new Date())?.code // 'MAINTENANCE_END_IN_PAST'
 */
export function maintenanceSettingRefusal(
  setting: MaintenanceSetting,
  now: Date,
): Refusal<MaintenanceSettingRefusalCode> | null {
  if (setting.on && setting.endsAt && setting.endsAt.getTime() <= now.getTime())
    return refuse('MAINTENANCE_END_IN_PAST', { endsAt: setting.endsAt.toISOString() });
  return null;
}

/**
 * Switches maintenance on or off in the caller's transaction (an admin action: runAdminAction records
 * the before and after beside it). Switching off forgets the planned end and keeps the message for
 * next time. A planned end in the past is refused.
 * @example const { before, after } = await setMaintenance(tx, { on: true, message: null, endsAt: null }, 'ops@example.jp')
 */
export async function setMaintenance(
  tx: Database,
  setting: MaintenanceSetting,
  changedBy: string,
  now = new Date(),
): Promise<{ before: MaintenanceState; after: MaintenanceState }> {
  const invalid = maintenanceSettingRefusal(setting, now);
  if (invalid) throw new RefusalError(invalid);
  // The row lock orders two operators switching at once; the second sees the first's result as "before".
  const [current] = await tx.select().from(shopState).for('update');
  const before = stateOf(current);
  const values = {
    maintenance: setting.on,
    maintenanceMessage: setting.on ? setting.message : before.customMessage,
    maintenanceEndsAt: setting.on ? setting.endsAt : null,
    changedBy,
    changedAt: now,
  };
  const [row] = await tx
    .insert(shopState)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: shopState.id, set: values })
    .returning();
  return { before, after: stateOf(row) };
}

export interface MaintenanceCache {
  /** The switch as of at most the cache's age ago (one database read per instance per period). */
  current(): Promise<MaintenanceState>;
  /** Reads the switch now (the instance that changed it calls this, so its own next page is exact). */
  refresh(): Promise<MaintenanceState>;
}

/**
 * A per-instance cache of the switch, so pages and the API read no database row per request: every
 * instance sees a change within `maxAgeMs` (MAINTENANCE_CACHE_SECONDS). Concurrent readers of an
 * expired entry share one read; a failed read keeps answering the last known state.
 * @example const maintenance = createMaintenanceCache(db, { maxAgeMs: 2000 }); if ((await maintenance.current()).on) …
 */
export function createMaintenanceCache(
  db: Database,
  options: { maxAgeMs: number; clock?: () => number },
): MaintenanceCache {
  const clock = options.clock ?? Date.now;
  let cached: { state: MaintenanceState; at: number } | null = null;
  let reading: Promise<MaintenanceState> | null = null;
  const read = () => {
    const started = clock();
    const promise = readMaintenance(db)
      .then((state) => {
        // A slower read started earlier never overwrites a newer one.
        if (!cached || cached.at <= started) cached = { state, at: started };
        return state;
      })
      .catch((error: unknown) => {
        if (cached) return cached.state;
        throw error;
      })
      .finally(() => {
        if (reading === promise) reading = null;
      });
    reading = promise;
    return promise;
  };
  return {
    current() {
      if (cached && clock() - cached.at < options.maxAgeMs) return Promise.resolve(cached.state);
      return reading ?? read();
    },
    refresh: read,
  };
}
