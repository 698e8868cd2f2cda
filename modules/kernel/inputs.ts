// Input schemas more than one module shares (one definition each): ids that are UUIDs.
import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a text is a UUID (any version, either case): rows keyed by uuid are looked up only then. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * A UUID (prize, draw, order ids). A regex rather than z.uuid(): the database accepts any version
 * and either case, and the OpenAPI document has always shown this pattern.
 */
export const uuidSchema = z.string().regex(UUID, 'IDの形式が正しくありません。');
