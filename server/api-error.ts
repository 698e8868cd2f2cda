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
  const requestId = c.get('requestId' as never) as string | undefined;
  return c.json(
    { error: { code, message, ...(details ? { details } : {}), ...(requestId ? { requestId } : {}) } },
    status,
  );
}

/** Seconds a client waits before retrying when the database turned the request away (pages and API alike). */
export { BUSY_RETRY_AFTER_SECONDS };

/** The words of SERVICE_BUSY: nothing was done, and the same request may be sent again. */
export const SERVICE_BUSY_MESSAGE =
  'ただいま混み合っています。数秒おいてから、もう一度お試しください（同じ操作が二重に行われることはありません）。';

/**
 * The answer to an error nobody handled: 503 with Retry-After when the database could not take the
 * request (too many connections, restarting: nothing was written, a retry with the same key is safe),
 * the same for a media store that did not answer (decision 071: each upload says so itself; this is the
 * net under them), otherwise 500. Bad input never reaches here: it is answered 4xx where it is read.
 * @example app.onError((error, c) => unexpectedErrorAnswer(c, error, logger))
 */
export function unexpectedErrorAnswer(
  c: Context,
  error: unknown,
  logger: { error(object: object, message: string): void; warn(object: object, message: string): void },
) {
  const reqId = c.get('requestId' as never) as string | undefined;
  if (isDatabaseUnavailable(error)) {
    logger.warn({ reqId, err: error }, 'database unavailable: answered 503');
    c.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
    return apiError(c, 503, 'SERVICE_BUSY', SERVICE_BUSY_MESSAGE);
  }
  if (isMediaStoreUnavailable(error)) {
    logger.warn({ reqId, err: error }, 'media store unavailable: answered 503');
    c.header('Retry-After', String(MEDIA_STORE_RETRY_AFTER_SECONDS));
    return apiError(c, 503, 'MEDIA_STORE_UNAVAILABLE', MEDIA_STORE_UNAVAILABLE_MESSAGE);
  }
  logger.error({ reqId, err: error }, 'unhandled error');
  return apiError(c, 500, 'INTERNAL_ERROR', '申し訳ありません。エラーが発生しました。時間をおいてお試しください。');
}
