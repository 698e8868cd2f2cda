// Prismic's failures in the shop's codes (specification section 8), and which of them the queue tries again.
import {
  ForbiddenError,
  NotFoundError,
  ParsingError,
  PreviewTokenExpiredError,
  PrismicError,
  RefExpiredError,
  RefNotFoundError,
} from '@prismicio/client';
import { ContentError, isContentError } from '../errors';

/**
 * The shop's code for whatever the client or the fetch threw (specification section 8).
 * @example toContentError(new ParsingError('bad q', url, body)).code // 'invalid-query'
 */
export function toContentError(error: unknown): ContentError {
  if (isContentError(error)) return error;
  // A ContentError thrown by our fetch may reach us wrapped by nothing, or as the cause of another error.
  if (error instanceof Error && isContentError(error.cause)) return error.cause;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ParsingError) return new ContentError('invalid-query', message, { status: 400, cause: error });
  if (error instanceof RefExpiredError) return new ContentError('expired-ref', message, { status: 410, cause: error });
  if (error instanceof RefNotFoundError || error instanceof PreviewTokenExpiredError)
    return new ContentError('expired-ref', message, { status: 404, cause: error });
  if (error instanceof ForbiddenError) return new ContentError('forbidden', message, { status: 401, cause: error });
  if (error instanceof NotFoundError) return new ContentError('not-found', message, { status: 404, cause: error });
  if (error instanceof PrismicError)
    return new ContentError('unavailable', `Prismic answered unexpectedly: ${message}`, { cause: error });
  return new ContentError('unavailable', message, { cause: error });
}

/**
 * Whether another attempt of the same job may succeed. The client has already retried a ref error with
 * the master ref Prismic named ("Master ref is: …", up to its 3 attempts); when Prismic named none, the
 * next attempt starts over from /api/v2, whose cache the client dropped.
 */
export function worthAnotherAttempt(error: unknown): boolean {
  if (!isContentError(error)) return false;
  if (error.code === 'unavailable') return true;
  return error.code === 'expired-ref' && !/master ref is:/i.test(error.message);
}
