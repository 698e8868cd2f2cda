// The content sources' own errors: one code per way a headless content service can fail (specification
// section 8: 400 invalid query, 401/403 forbidden, 404 not found, 410 expired ref), so pages, logs and
// /api/health speak the shop's words whatever the source's client throws.

export const CONTENT_ERROR_CODES = [
  /** 400: the query was malformed (a bug of ours, never retried). */
  'invalid-query',
  /** 401/403: the access token is missing, wrong or revoked (never retried). */
  'forbidden',
  /** 404: the repository or the document does not exist (a missing page is null, not this). */
  'not-found',
  /** 410, or Prismic's ref-not-found: the ref cannot be used any more (retried with the master ref). */
  'expired-ref',
  /** 429 after every attempt the rules allow. */
  'rate-limited',
  /** The service did not answer in time, refused the connection or answered 5xx. */
  'unavailable',
] as const;
export type ContentErrorCode = (typeof CONTENT_ERROR_CODES)[number];

/**
 * A content source's failure with the shop's code; `status` is the HTTP status when there was one.
 * @example throw new ContentError('forbidden', 'Prismic refused the access token', { status: 401 })
 */
export class ContentError extends Error {
  readonly code: ContentErrorCode;
  readonly status: number | null;
  constructor(code: ContentErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ContentError';
    this.code = code;
    this.status = options.status ?? null;
  }
}

/** @example isContentError(error, 'not-found') */
export function isContentError(error: unknown, code?: ContentErrorCode): error is ContentError {
  return error instanceof ContentError && (code === undefined || error.code === code);
}
