// The registry's request handling with test-only operations: validation, media types, JSON syntax,
// Idempotency-Key, authentication, answers checked against their schemas, and never a 500 for bad input.
import { describe, it, expect, beforeAll } from 'vitest';
import { z } from 'zod';
import fc from 'fast-check';
import { propertyRuns } from '#tests/settings';
import { createApiV1 } from './index';
import { defineOperation, type ApiOperation } from './registry';
import { ApiError } from './http';
import { refuse } from '#modules/kernel';
import { requestJson, stubServices } from './testing';
import type { ShopServices } from '#server/services';

const seen: { idempotencyKey?: string | null; body?: unknown; query?: unknown; params?: unknown; headers?: unknown } =
  {};

const createThing = defineOperation({
  operationId: 'createTestThing',
  method: 'post',
  path: '/test-things/{thingId}',
  summary: 'テスト用',
  tags: ['test'],
  auth: 'none',
  params: z.object({ thingId: z.string().regex(/^[a-z]+$/, '英小文字で指定してください。') }),
  query: z.object({ mode: z.enum(['fast', 'slow']).default('fast') }),
  headers: z.object({ 'x-client-version': z.string().max(10).optional() }),
  body: z.object({ name: z.string().min(1).max(10), quantity: z.int().min(1).max(10), note: z.string().optional() }),
  idempotencyKey: 'required',
  responses: {
    201: {
      description: '作成',
      schema: z.object({ thingId: z.string(), name: z.string(), quantity: z.int(), mode: z.string() }),
    },
    409: { description: '競合', codes: ['THING_EXISTS'] },
  },
  handler: ({ params, query, body, headers, idempotencyKey }) => {
    Object.assign(seen, { params, query, body, headers, idempotencyKey });
    if (params.thingId === 'taken') throw new ApiError(409, 'THING_EXISTS', 'すでにあります。', { thingId: 'taken' });
    // `secret` is not in the schema: the answer must not carry it.
    const answer = {
      thingId: params.thingId,
      name: body.name,
      quantity: body.quantity,
      mode: query.mode,
      secret: 'internal',
    };
    return { status: 201, body: answer };
  },
});

const optionalBody = defineOperation({
  operationId: 'touchTestThing',
  method: 'put',
  path: '/test-things/{thingId}/touch',
  summary: 'テスト用（本文は省略可）',
  tags: ['test'],
  auth: 'none',
  params: z.object({ thingId: z.string() }),
  body: z.object({ at: z.iso.datetime({ offset: true }).optional() }).optional(),
  responses: { 204: { description: '更新' } },
  handler: () => ({ status: 204 }),
});

const myThing = defineOperation({
  operationId: 'getMyTestThing',
  method: 'get',
  path: '/me/test-thing',
  summary: 'テスト用（ログインが必要）',
  tags: ['test'],
  auth: 'member',
  responses: { 200: { description: '自分', schema: z.object({ memberId: z.string() }) } },
  handler: ({ member }) => ({ status: 200, body: { memberId: member.id } }),
});

const broken = defineOperation({
  operationId: 'brokenTestThing',
  method: 'get',
  path: '/test-broken/{how}',
  summary: 'テスト用（不具合）',
  tags: ['test'],
  auth: 'none',
  params: z.object({ how: z.enum(['status', 'body', 'throw']) }),
  responses: { 200: { description: 'x', schema: z.object({ n: z.int() }) } },
  handler: ({ params }) => {
    if (params.how === 'throw') throw new Error('boom');
    if (params.how === 'status') return { status: 299 as 200, body: { n: 1 } };
    return { status: 200, body: { n: 'not a number' as unknown as number } };
  },
});

const raw = defineOperation({
  operationId: 'rawTestThing',
  method: 'get',
  path: '/test-raw',
  summary: 'テスト用（Response をそのまま返す）',
  tags: ['test'],
  auth: 'none',
  responses: { 200: { description: 'text', schema: z.string() } },
  handler: ({ c }) => c.text('plain', 200, { 'X-Test': 'yes' }),
});

const refused = defineOperation({
  operationId: 'refusedTestThing',
  method: 'get',
  path: '/test-refused/{code}',
  summary: 'テスト用（モジュールの断りを返す）',
  tags: ['test'],
  auth: 'none',
  params: z.object({ code: z.enum(['busy', 'short', 'missing']) }),
  responses: { 200: { description: 'ok', schema: z.object({ ok: z.boolean() }) } },
  handler: ({ params }) =>
    params.code === 'busy'
      ? refuse('DRAW_BUSY')
      : params.code === 'short'
        ? refuse('INSUFFICIENT_COINS', { required: 1000, balance: 20 })
        : refuse('GACHA_NOT_FOUND'),
});

const testOperations: ApiOperation[] = [createThing, optionalBody, myThing, broken, raw, refused];

let services: ShopServices;
let app: ReturnType<typeof createApiV1>;
beforeAll(() => {
  services = stubServices();
  app = createApiV1(services, { modules: [], extraOperations: testOperations });
});

const validCreate = (
  overrides: { path?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
) =>
  requestJson(app, overrides.path ?? '/test-things/abc?mode=slow', {
    method: 'POST',
    headers: { 'Idempotency-Key': 'key-1', ...overrides.headers },
    ...('rawBody' in overrides
      ? { rawBody: overrides.rawBody }
      : { body: overrides.body ?? { name: 'カード', quantity: 2 } }),
  });

describe('a valid request', () => {
  it('reaches the handler with parsed input and answers the declared body only', async () => {
    const response = await validCreate({ headers: { 'X-Client-Version': '1.2' } });
    expect(response.status).toBe(201);
    expect(response.json).toEqual({ thingId: 'abc', name: 'カード', quantity: 2, mode: 'slow' });
    expect(response.text).not.toContain('internal');
    expect(seen).toMatchObject({
      params: { thingId: 'abc' },
      query: { mode: 'slow' },
      headers: { 'x-client-version': '1.2' },
      idempotencyKey: 'key-1',
    });
  });
  it('applies query defaults', async () => {
    const response = await validCreate({ path: '/test-things/abc' });
    expect(response.json.mode).toBe('fast');
  });
  it('accepts JSON with a charset and +json media types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const response = await validCreate({ headers: { 'content-type': type } });
      expect(response.status).toBe(201);
    }
  });
  it('answers 204 without a body, and a raw Response as the handler made it', async () => {
    const touched = await requestJson(app, '/test-things/abc/touch', { method: 'PUT' });
    expect(touched.status).toBe(204);
    expect(touched.text).toBe('');
    const rawAnswer = await requestJson(app, '/test-raw');
    expect(rawAnswer.text).toBe('plain');
    expect(rawAnswer.headers.get('x-test')).toBe('yes');
  });
  it('answers a business error thrown as ApiError in the error body', async () => {
    const response = await validCreate({ path: '/test-things/taken' });
    expect(response.status).toBe(409);
    expect(response.json).toEqual({
      error: {
        code: 'THING_EXISTS',
        message: 'すでにあります。',
        details: { thingId: 'taken' },
        requestId: expect.any(String),
      },
    });
  });
});

describe("a module's refusal returned by a handler", () => {
  it('is answered with the status, message and headers of modules/refusals, details only when it has some', async () => {
    const short = await requestJson(app, '/test-refused/short');
    expect([short.status, short.json]).toEqual([
      422,
      {
        error: {
          code: 'INSUFFICIENT_COINS',
          message: 'コインが不足しています（必要 1,000コイン／所持 20コイン）。',
          details: { required: 1000, balance: 20 },
          requestId: expect.any(String),
        },
      },
    ]);
    const busy = await requestJson(app, '/test-refused/busy');
    expect([busy.status, busy.json.error.code, busy.headers.get('retry-after')]).toEqual([409, 'DRAW_BUSY', '1']);
    const missing = await requestJson(app, '/test-refused/missing');
    expect([missing.status, missing.json]).toEqual([
      404,
      { error: { code: 'GACHA_NOT_FOUND', message: 'ガチャが見つかりません。', requestId: expect.any(String) } },
    ]);
  });
});

describe('invalid input', () => {
  it('is a 400 VALIDATION_FAILED with a Japanese message for every field at once', async () => {
    const response = await validCreate({
      path: '/test-things/ABC?mode=turbo',
      headers: { 'X-Client-Version': 'x'.repeat(11) },
      body: { name: '', quantity: 11 },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.json.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: '入力内容に誤りがあります。',
      details: {
        fields: {
          thingId: '英小文字で指定してください。',
          mode: 'fast、slow のいずれかを指定してください。',
          'x-client-version': '10文字以内で入力してください。',
          name: '入力してください。',
          quantity: '10以下で指定してください。',
        },
      },
    });
    expect(response.json.error.requestId).toEqual(expect.any(String));
  });
  it('names missing and mistyped body fields', async () => {
    const response = await validCreate({ body: { quantity: '2' } });
    expect(response.status).toBe(400);
    expect(response.json.error.details.fields).toEqual({
      name: '入力してください。',
      quantity: '数値で指定してください。',
    });
  });
  it('treats a missing required body as a validation error on body', async () => {
    const response = await requestJson(app, '/test-things/abc', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k' },
    });
    expect(response.status).toBe(400);
    expect(response.json.error.details.fields).toEqual({ body: '入力してください。' });
  });
  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    for (const rawBody of ['{"name":', 'not json', '{"a":1}}']) {
      const response = await validCreate({ rawBody, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({
        code: 'INVALID_JSON',
        message: '送信内容のJSONの形式が正しくありません。',
      });
    }
  });
  it('answers another media type with 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const response = await validCreate({ rawBody: 'name=x', headers: { 'content-type': type } });
      expect(response.status).toBe(415);
      expect(response.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const untyped = await validCreate({ rawBody: '{"name":"x","quantity":1}' });
    expect(untyped.status).toBe(415);
  });
  it('checks Idempotency-Key where the operation requires it', async () => {
    const missing = await requestJson(app, '/test-things/abc', { method: 'POST', body: { name: 'x', quantity: 1 } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const long = await validCreate({ headers: { 'Idempotency-Key': 'k'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.json.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(long.json.error.message).toMatch(/1〜255文字/);
  });
});

describe('routing', () => {
  it('answers an unknown path with a JSON 404', async () => {
    const response = await requestJson(app, '/nothing-here');
    expect(response.status).toBe(404);
    expect(response.json.error).toMatchObject({ code: 'NOT_FOUND', message: 'APIが見つかりません。' });
  });
  it('answers a known path with another method with 405 and Allow', async () => {
    const response = await requestJson(app, '/test-things/abc', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.json.error.code).toBe('METHOD_NOT_ALLOWED');
    const get = await requestJson(app, '/me/test-thing', { method: 'POST' });
    expect(get.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('authentication', () => {
  it('answers a member operation without a session with 401 UNAUTHENTICATED', async () => {
    const response = await requestJson(app, '/me/test-thing');
    expect(response.status).toBe(401);
    expect(response.json.error).toMatchObject({ code: 'UNAUTHENTICATED', message: 'ログインしてください。' });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('bugs in a handler', () => {
  it('are a logged 500 whose body carries the request id', async () => {
    for (const how of ['throw', 'status', 'body']) {
      const response = await requestJson(app, `/test-broken/${how}`);
      expect(response.status).toBe(500);
      expect(response.json.error).toMatchObject({ code: 'INTERNAL_ERROR', requestId: expect.any(String) });
      expect(response.text).not.toContain('boom');
    }
  });
});

describe('never a 500 for bad input', () => {
  it('holds for any body, query, path and header the fuzzer makes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        fc.string(),
        fc.webSegment(),
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
        fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
        async (rawBody, queryValue, segment, contentType, key) => {
          const path = `/test-things/${segment || 'a'}?mode=${encodeURIComponent(queryValue)}&limit=${encodeURIComponent(queryValue)}`;
          const headers: Record<string, string> = { 'Idempotency-Key': key };
          if (contentType) headers['content-type'] = contentType;
          const response = await requestJson(app, path, { method: 'POST', rawBody, headers });
          expect(response.status).toBeLessThan(500);
          expect(response.json?.error ?? response.json).toBeDefined();
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('declaring operations', () => {
  const base = {
    summary: 'x',
    tags: ['test'],
    auth: 'none' as const,
    responses: { 204: { description: 'x' } },
    handler: () => ({ status: 204 as const }),
  };
  it('refuses an operationId that is not camelCase and a path without its params', () => {
    expect(() => defineOperation({ ...base, operationId: 'Bad-Id', method: 'get', path: '/x' })).toThrow(/camelCase/);
    expect(() => defineOperation({ ...base, operationId: 'noParams', method: 'get', path: '/x/{id}' })).toThrow(
      /params/,
    );
    expect(() =>
      defineOperation({
        ...base,
        operationId: 'extraParams',
        method: 'get',
        path: '/x',
        params: z.object({ id: z.string() }),
      }),
    ).toThrow(/params/);
    expect(() => defineOperation({ ...base, operationId: 'colonPath', method: 'get', path: '/x/:id' })).toThrow(/path/);
  });
  it('refuses two operations with one operationId', () => {
    const one = defineOperation({ ...base, operationId: 'sameId', method: 'get', path: '/a' });
    const two = defineOperation({ ...base, operationId: 'sameId', method: 'get', path: '/b' });
    expect(() => createApiV1(services, { modules: [[one, two]] })).toThrow(/duplicate operationId/);
  });
  it('type-checks answers against the declared responses', () => {
    defineOperation({
      ...base,
      operationId: 'typed',
      method: 'get',
      path: '/typed',
      responses: { 200: { description: 'x', schema: z.object({ n: z.int() }) }, 404: { description: 'none' } },
      // @ts-expect-error: a status the operation does not declare
      handler: () => ({ status: 201, body: { n: 1 } }),
    });
    defineOperation({
      ...base,
      operationId: 'typed2',
      method: 'get',
      path: '/typed',
      responses: { 200: { description: 'x', schema: z.object({ n: z.int() }) } },
      // @ts-expect-error: a body its schema does not describe
      handler: () => ({ status: 200, body: { n: 'one' } }),
    });
    defineOperation({
      ...base,
      operationId: 'typed3',
      method: 'get',
      path: '/typed',
      auth: 'member',
      responses: { 200: { description: 'x', schema: z.object({ id: z.string() }) }, 404: { description: 'none' } },
      // member is not null for a member operation
      handler: async ({ member }) => (member.id ? { status: 200, body: { id: member.id } } : { status: 404 }),
    });
  });
});
