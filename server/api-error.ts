// The JSON error body of docs/api.md: { error: { code, message, details } } with a stable English code.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { BUSY_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '#db/unavailable';
import {
  MEDIA_STORE_RETRY_AFTER_SECONDS,
  MEDIA_STORE_UNAVAILABLE_MESSAGE,
  isMediaStoreUnavailable,
} from '#modules/kernel';

/** @example return apiError(c, 404, 'NOT_FOUND', '見つかりません。') */
export function apiError(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  details?: Record<string, unknown>,
) {
  return c.json(errorBody(code, message, details, c.get('requestId' as never) as string | undefined), status);
}

/** Seconds a client waits before retrying when the database turned the request away (pages and API alike). */
export { BUSY_RETRY_AFTER_SECONDS };

/** The words of SERVICE_BUSY: nothing was done, and the same request may be sent again. */
export const SERVICE_BUSY_MESSAGE =
  'ただいま混み合っています。数秒おいてから、もう一度お試しください（同じ操作が二重に行われることはありません）。';

/** An error answer as data: what apiError sends, for a writer without a Hono context (the draw lane). */
export interface ErrorAnswer {
  status: ContentfulStatusCode;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * The body of apiError: `{ error: { code, message, details?, requestId? } }`.
 * @example errorBody('NOT_FOUND', '見つかりません。', undefined, reqId)
 */
export const errorBody = (code: string, message: string, details?: Record<string, unknown>, requestId?: string) => ({
  error: { code, message, ...(details ? { details } : {}), ...(requestId ? { requestId } : {}) },
});

type ErrorLogger = { error(object: object, message: string): void; warn(object: object, message: string): void };

/**
 * The answer to an error nobody handled: 503 with Retry-After when the database could not take the
 * request (too many connections, restarting: nothing was written, a retry with the same key is safe),
 * the same for a media store that did not answer (decision 071: each upload says so itself; this is the
 * net under them), otherwise 500. Bad input never reaches here: it is answered 4xx where it is read.
 * Logs it as unexpectedErrorAnswer does.
 * @example const answer = describeUnexpectedError(error, logger, reqId)
 */
export function describeUnexpectedError(error: unknown, logger: ErrorLogger, reqId: string | undefined): ErrorAnswer {
  if (isDatabaseUnavailable(error)) {
    logger.warn({ reqId, err: error }, 'database unavailable: answered 503');
    const headers = { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) };
    return { status: 503, code: 'SERVICE_BUSY', message: SERVICE_BUSY_MESSAGE, headers };
  }
  if (isMediaStoreUnavailable(error)) {
    logger.warn({ reqId, err: error }, 'media store unavailable: answered 503');
    const headers = { 'Retry-After': String(MEDIA_STORE_RETRY_AFTER_SECONDS) };
    return { status: 503, code: 'MEDIA_STORE_UNAVAILABLE', message: MEDIA_STORE_UNAVAILABLE_MESSAGE, headers };
  }
  logger.error({ reqId, err: error }, 'unhandled error');
  return {
    status: 500,
    code: 'INTERNAL_ERROR',
    message: '申し訳ありません。エラーが発生しました。時間をおいてお試しください。',
  };
}

/**
 * describeUnexpectedError answered with apiError.
 * @example app.onError((error, c) => unexpectedErrorAnswer(c, error, logger))
 */
export function unexpectedErrorAnswer(c: Context, error: unknown, logger: ErrorLogger) {
  const answer = describeUnexpectedError(error, logger, c.get('requestId' as never) as string | undefined);
  for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
  return apiError(c, answer.status, answer.code, answer.message);
}
