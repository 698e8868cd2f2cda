// The shared helpers: Idempotency-Key, request hashes, cursors, times and Japanese messages.
import { describe, it, expect } from 'vitest';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  ApiError,
  canonicalJson,
  decodeCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeOffsetCursor,
  pageQuery,
  parseOrThrow,
  readIdempotencyKey,
  requestHash,
  slicePage,
  toIso,
} from './http';

/** Runs readIdempotencyKey on a request with these headers; answers the key or the ApiError. */
async function idempotencyKeyOf(headers: Record<string, string>, required = true): Promise<string | null | ApiError> {
  const app = new Hono();
  let outcome: string | null | ApiError = null;
  app.get('/', (c) => {
    try {
      outcome = readIdempotencyKey(c, { required });
    } catch (error) {
      outcome = error as ApiError;
    }
    return c.text('ok');
  });
  await app.request('/', { headers });
  return outcome;
}

describe('readIdempotencyKey', () => {
  it('answers the key when it is 1–255 printable ASCII characters', async () => {
    expect(await idempotencyKeyOf({ 'Idempotency-Key': 'a' })).toBe('a');
    expect(await idempotencyKeyOf({ 'idempotency-key': 'draw:2025-01-31:9f86d0' })).toBe('draw:2025-01-31:9f86d0');
    expect(await idempotencyKeyOf({ 'Idempotency-Key': 'x'.repeat(255) })).toBe('x'.repeat(255));
  });
  it('requires the key when the operation says so, with a Japanese message', async () => {
    const missing = await idempotencyKeyOf({});
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 400, code: 'IDEMPOTENCY_KEY_REQUIRED' });
    expect((missing as ApiError).message).toMatch(/Idempotency-Key/);
    expect((missing as ApiError).message).toMatch(/[ぁ-ん]/);
    expect(await idempotencyKeyOf({}, false)).toBeNull();
  });
  it('refuses a key that is too long or not printable ASCII', async () => {
    for (const key of ['x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      expect(await idempotencyKeyOf({ 'Idempotency-Key': key })).toMatchObject({
        status: 400,
        code: 'IDEMPOTENCY_KEY_INVALID',
      });
    }
    // Header values are trimmed: only spaces is no key at all.
    expect(await idempotencyKeyOf({ 'Idempotency-Key': '   ' })).toMatchObject({
      status: 400,
      code: 'IDEMPOTENCY_KEY_REQUIRED',
    });
  });
});

describe('requestHash', () => {
  it('is the same whatever the key order, and differs when a value differs', () => {
    const a = requestHash({ body: { count: 10, gachaId: 'g1' }, path: '/x' });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ path: '/x', body: { gachaId: 'g1', count: 10 } })).toBe(a);
    expect(requestHash({ path: '/x', body: { gachaId: 'g1', count: 11 } })).not.toBe(a);
  });
  it('writes canonical JSON like JSON.stringify, with sorted keys', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: undefined, a: null }], a: 'x' })).toBe(
      '{"a":"x","b":[1,{"a":null,"d":1}]}',
    );
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
  });
});

describe('cursors', () => {
  const schema = z.object({ offset: z.number().int().min(0) });
  it('round-trips an object through an opaque base64url string', () => {
    const cursor = encodeCursor({ offset: 40 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, schema)).toEqual({ offset: 40 });
  });
  it('answers 400 CURSOR_INVALID for anything it did not make', () => {
    for (const bad of ['%%%', 'bm90IGpzb24', encodeCursor({ offset: -1 }), encodeCursor('x'), 'a.b']) {
      expect(() => decodeCursor(bad, schema)).toThrow(expect.objectContaining({ status: 400, code: 'CURSOR_INVALID' }));
    }
  });
  it('binds an offset cursor to its filters', () => {
    const cursor = encodeOffsetCursor(20, { genreId: 'pokemon' });
    expect(decodeOffsetCursor(cursor, { genreId: 'pokemon' })).toBe(20);
    expect(() => decodeOffsetCursor(cursor, { genreId: 'yugioh' })).toThrow(
      expect.objectContaining({ code: 'CURSOR_INVALID' }),
    );
  });
  it('pages a list in memory to the end', () => {
    const all = Array.from({ length: 45 }, (_, i) => i);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = slicePage(all, parseOrThrow(pageQuery, { cursor, limit: '20' }, 'query'));
      seen.push(...page.items);
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(3);
  });
});

describe('pageQuery', () => {
  it('defaults the limit to 20 and allows at most 100', () => {
    expect(pageQuery.parse({})).toEqual({ limit: 20 });
    expect(pageQuery.parse({ limit: '100' }).limit).toBe(100);
  });
  it('refuses a bad limit with a Japanese message for the field', () => {
    for (const [limit, message] of [
      ['101', '100以下で指定してください。'],
      ['0', '1以上で指定してください。'],
      ['abc', '数値で指定してください。'],
      ['1.5', '整数で指定してください。'],
    ]) {
      expect(() => parseOrThrow(pageQuery, { limit }, 'query')).toThrow(
        expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED', details: { fields: { limit: message } } }),
      );
    }
  });
});

describe('toIso', () => {
  it('writes the UTC instant with the Z offset', () => {
    expect(toIso(new Date(Date.UTC(2025, 0, 31, 15, 0, 0)))).toBe('2025-01-31T15:00:00.000Z');
    expect(toIso('2025-02-01T00:00:00+09:00')).toBe('2025-01-31T15:00:00.000Z');
    expect(toIso(null)).toBeNull();
    expect(() => toIso('not a date')).toThrow(RangeError);
  });
  it('writes what the API schema for times accepts', () => {
    expect(z.iso.datetime({ offset: true }).safeParse(toIso(new Date())).success).toBe(true);
  });
});

describe('validation messages', () => {
  const schema = z.object({
    name: z.string().min(1).max(5),
    kind: z.enum(['a', 'b']),
    email: z.email(),
    items: z.array(z.object({ quantity: z.int().min(1) })).max(2),
    custom: z
      .string()
      .refine((v) => v === 'ok', 'カスタムのメッセージ')
      .optional(),
  });
  it('are Japanese, one per field, keyed by the dotted path', () => {
    try {
      parseOrThrow(
        schema,
        { name: 'toolongname', kind: 'c', email: 'nope', items: [{ quantity: 0 }], custom: 'ng' },
        'body',
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe('入力内容に誤りがあります。');
      expect((error as ApiError).details).toEqual({
        fields: {
          name: '5文字以内で入力してください。',
          kind: 'a、b のいずれかを指定してください。',
          email: 'メールアドレスの形式が正しくありません。',
          'items.0.quantity': '1以上で指定してください。',
          custom: 'カスタムのメッセージ',
        },
      });
    }
  });
  it('say a missing field must be filled in, and key a bad whole value by its root', () => {
    expect(() => parseOrThrow(schema, {}, 'body')).toThrow(
      expect.objectContaining({ details: { fields: expect.objectContaining({ name: '入力してください。' }) } }),
    );
    expect(() => parseOrThrow(schema, 'text', 'body')).toThrow(
      expect.objectContaining({ details: { fields: { body: '項目の組で指定してください。' } } }),
    );
  });
});
