// The JSON error body of api.md: { error: { code, message, details } } with a stable English code.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

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
