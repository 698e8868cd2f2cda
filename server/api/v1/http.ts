// Helpers every /api/v1 operation shares: the error thrown to answer docs/api.md's error body, Japanese
// validation messages, the Idempotency-Key header, request hashes, cursor paging and times.
import crypto from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { idempotencyKeySchema } from '#modules/idempotency';
import type { Refusal } from '#modules/kernel';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { JAPANESE_PARSE, fieldMessages } from '#modules/kernel';

/**
 * Thrown anywhere below an operation's handler; the registry answers it as
 * `{ error: { code, message, details, requestId } }` with the status (and any headers, e.g. Retry-After).
 * @example throw new ApiError(404, 'GACHA_NOT_FOUND', 'ガチャが見つかりません。')
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A module's refusal as the API's error: status, message and headers from the one catalogue
 * (modules/refusals), so the API and the pages say the same. Details go out only when there are any.
 * @example if (!outcome.ok) throw refusalError(outcome)
 */
export function refusalError(refusal: Refusal<RefusalCode>): ApiError {
  const { status, code, message, details, headers } = describeRefusal(refusal);
  return new ApiError(
    status,
    code,
    message,
    Object.keys(details).length ? details : undefined,
    Object.keys(headers).length ? { ...headers } : undefined,
  );
}

export const VALIDATION_FAILED_MESSAGE = '入力内容に誤りがあります。';

// ---------------------------------------------------------------------------------------------
// Validation messages (shared with the pages' actions: modules/kernel/validation.ts)

export { japaneseIssueMessage, JAPANESE_PARSE, fieldMessages } from '#modules/kernel';

/** The 400 of docs/api.md for invalid input, with one Japanese message per field. */
export function validationFailed(fields: Record<string, string>): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', VALIDATION_FAILED_MESSAGE, { fields });
}

/**
 * Parses with Japanese messages, throwing the 400 on failure.
 * @example const input = parseOrThrow(schema, await c.req.json(), 'body')
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value, JAPANESE_PARSE);
  if (!result.success) throw validationFailed(fieldMessages(result.error, root));
  return result.data;
}

// ---------------------------------------------------------------------------------------------
// Idempotency-Key

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * The request's Idempotency-Key, or null when it sent none and none is required.
 * Throws 400 IDEMPOTENCY_KEY_REQUIRED / IDEMPOTENCY_KEY_INVALID.
 * @example const key = readIdempotencyKey(c, { required: true })
 */
export function readIdempotencyKey(c: Context, options: { required?: boolean } = {}): string | null {
  const value = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (value === undefined || value === '') {
    if (options.required) {
      throw new ApiError(
        400,
        'IDEMPOTENCY_KEY_REQUIRED',
        '二重送信を防ぐため、Idempotency-Key ヘッダーを付けて送信してください。',
      );
    }
    return null;
  }
  if (!idempotencyKeySchema.safeParse(value).success) {
    throw new ApiError(
      400,
      'IDEMPOTENCY_KEY_INVALID',
      'Idempotency-Key は半角英数字と記号で1〜255文字にしてください。',
    );
  }
  return value;
}

/**
 * JSON with object keys sorted at every depth (undefined members dropped, as JSON.stringify does),
 * so equal requests give equal text whatever the key order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * The hash stored beside an idempotency key: sha256 (hex) of the canonical JSON.
 * @example requestHash({ operationId: 'drawGacha', params, body }) // '9f86d0…' (64 hex)
 */
export function requestHash(value: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(value)).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Cursor paging

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** `cursor` (opaque, from the previous page's nextCursor) and `limit` (1–100, default 20). */
export const pageQuery = z.object({
  cursor: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .meta({ description: '前のページの nextCursor（そのまま渡す不透明な文字列）。省略すると最初のページ。' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .meta({ description: `1ページの件数（1〜${MAX_PAGE_LIMIT}、既定 ${DEFAULT_PAGE_LIMIT}）。` }),
});
export type PageQuery = z.output<typeof pageQuery>;

/** The answer of every list: `{ items, nextCursor }`, nextCursor null on the last page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().meta({ description: '次のページの cursor。最後のページでは null。' }),
  });
}

export const CURSOR_INVALID_MESSAGE = 'ページの指定が正しくありません。最初のページから読み込み直してください。';

/** @example encodeCursor({ offset: 20 }) // 'eyJvZmZzZXQiOjIwfQ' */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * Reads a cursor made by encodeCursor; anything else (edited, truncated, from another list) is a
 * 400 CURSOR_INVALID.
 * @example const { offset } = decodeCursor(query.cursor, z.object({ offset: z.number().int().min(0) }))
 */
export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S): z.output<S> {
  const invalid = () =>
    new ApiError(400, 'CURSOR_INVALID', CURSOR_INVALID_MESSAGE, { fields: { cursor: CURSOR_INVALID_MESSAGE } });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const result = schema.safeParse(decoded);
  if (!result.success) throw invalid();
  return result.data;
}

/**
 * One page out of a list already in memory, with an offset cursor bound to the list's filters
 * (a cursor from another filter is CURSOR_INVALID).
 * @example return { status: 200, body: slicePage(allGenres, query, { list: 'genres' }) }
 */
export function slicePage<T>(all: readonly T[], page: PageQuery, filters: Record<string, string | null> = {}) {
  const offset = page.cursor ? decodeOffsetCursor(page.cursor, filters) : 0;
  const items = all.slice(offset, offset + page.limit);
  const next = offset + page.limit;
  return { items, nextCursor: next < all.length ? encodeOffsetCursor(next, filters) : null };
}

const offsetCursor = z.object({ o: z.number().int().min(0).max(1_000_000), f: z.string() });

/** An opaque cursor holding an offset and a hash of the filters it belongs to. */
export function encodeOffsetCursor(offset: number, filters: Record<string, string | null> = {}): string {
  return encodeCursor({ o: offset, f: requestHash(filters).slice(0, 16) });
}

/** The offset of an encodeOffsetCursor cursor, checked against the current filters. */
export function decodeOffsetCursor(cursor: string, filters: Record<string, string | null> = {}): number {
  const { o, f } = decodeCursor(cursor, offsetCursor);
  if (f !== requestHash(filters).slice(0, 16)) {
    throw new ApiError(400, 'CURSOR_INVALID', CURSOR_INVALID_MESSAGE, { fields: { cursor: CURSOR_INVALID_MESSAGE } });
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Times

/**
 * Times in the API are the UTC instant in ISO 8601 with the zero offset written 'Z'
 * (RFC 3339: `2025-01-31T00:00:00.000Z`). Pages convert to Asia/Tokyo for display.
 * @example toIso(new Date(0)) // '1970-01-01T00:00:00.000Z'
 */
export function toIso(date: Date | string | number): string;
export function toIso(date: Date | string | number | null | undefined): string | null;
export function toIso(date: Date | string | number | null | undefined): string | null {
  if (date === null || date === undefined) return null;
  const value = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(value.getTime())) throw new RangeError(`toIso: not a time: ${String(date)}`);
  return value.toISOString();
}

/** The schema of a time field in a response or a request. */
export const isoDateTime = () =>
  z.iso.datetime({ offset: true }).meta({
    description: 'ISO 8601 の日時（オフセット付き。サーバーは UTC の Z で返す）',
    examples: ['2025-01-31T00:00:00.000Z'],
  });

// ---------------------------------------------------------------------------------------------
// Error body

/** The error body of docs/api.md. */
export const errorResponseSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: '英語の固定の識別子（例: INSUFFICIENT_COINS）' }),
      message: z.string().meta({ description: '会員に表示できる日本語のメッセージ' }),
      details: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: '画面に必要な補足。入力エラーでは fields に項目ごとの日本語メッセージ。' }),
      requestId: z
        .string()
        .optional()
        .meta({ description: 'リクエストID（X-Request-Id と同じ）。問い合わせの際に添えてください。' }),
    }),
  })
  .meta({ description: 'エラーの本文' });
