// The OpenAPI 3.1 document and the reference page, generated from the operations' zod schemas.
import { describe, it, expect, beforeAll } from 'vitest';
import { z } from 'zod';
import { createApiV1, API_V1_OPERATION_MODULES } from './index';
import { apiSchema, defineOperation } from './registry';
import { buildOpenApiDocument, describeType, type OpenApiDocument } from './openapi';
import { pageOf, pageQuery } from './http';
import { requestJson, stubServices, TEST_ORIGIN } from './testing';

// A named schema whose input differs from its output (a default): requests get TestOrderInput.
const testOrder = apiSchema(
  'TestOrder',
  z.object({ count: z.int().min(1).max(100).default(1), note: z.string().max(200).optional() }),
);

const createOrder = defineOperation({
  operationId: 'createTestOrder',
  method: 'post',
  path: '/me/test-orders',
  summary: 'テスト用の注文',
  tags: ['test'],
  auth: 'member',
  body: testOrder,
  idempotencyKey: 'required',
  responses: {
    201: { description: '注文', schema: z.object({ order: testOrder, createdAt: z.iso.datetime({ offset: true }) }) },
    409: { description: '同じキーで別の内容', codes: ['IDEMPOTENCY_KEY_REUSED'] },
    429: { description: '回数制限', codes: ['RATE_LIMITED'], headers: { 'Retry-After': '再試行までの秒数' } },
  },
  handler: ({ body }) => ({ status: 201, body: { order: body, createdAt: new Date().toISOString() } }),
});

const listOrders = defineOperation({
  operationId: 'listTestOrders',
  method: 'get',
  path: '/me/test-orders',
  summary: 'テスト用の注文一覧',
  tags: ['test'],
  auth: 'staff',
  query: pageQuery,
  responses: { 200: { description: '一覧', schema: pageOf(testOrder) } },
  handler: () => ({ status: 200, body: { items: [], nextCursor: null } }),
});

let document: OpenApiDocument;
let app: ReturnType<typeof createApiV1>;

beforeAll(async () => {
  app = createApiV1(stubServices(), { extraOperations: [createOrder, listOrders] });
  const response = await requestJson(app, '/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  document = response.json;
});

const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
const find = (operationId: string) => operationsOf(document).find((entry) => entry.op.operationId === operationId)!;

function allRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => allRefs(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref') found.push(inner as string);
      else allRefs(inner, found);
    }
  }
  return found;
}

describe('openapi.json', () => {
  it('is an OpenAPI 3.1 document with info, servers and both security schemes', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toContain('API');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(document.servers[0]!.url).toBe(`${TEST_ORIGIN}/api/v1`);
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: '__Secure-oripa.session_token',
    });
    expect(document.components.securitySchemes.sessionBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
  it('gives every operation a unique camelCase operationId, a summary, tags and responses', () => {
    const operations = operationsOf(document);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(op.summary).toBeTruthy();
      expect(op.tags.length).toBeGreaterThan(0);
      expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
      expect(path).toMatch(/^\//);
      for (const name of path.match(/\{(\w+)\}/g) ?? []) {
        expect(op.parameters?.some((p) => p.in === 'path' && `{${p.name}}` === name && p.required)).toBe(true);
      }
    }
  });
  it('describes the catalogue', () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/genres', '/gachas', '/gachas/{gachaId}', '/openapi.json']),
    );
    expect(find('listGenres').method).toBe('get');
    const list = find('listGachas');
    expect(list.path).toBe('/gachas');
    expect(list.op.security).toEqual([]);
    const params = Object.fromEntries(list.op.parameters!.map((p) => [p.name, p]));
    expect(params.limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(params.cursor).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    expect(params.sort!.schema).toMatchObject({
      enum: ['recommended', 'new', 'price_asc', 'price_desc'],
      default: 'recommended',
    });
    expect(params.genreId!.description).toBeTruthy();
    expect(list.op.responses['200']!.content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/GachaList',
    });
    expect(list.op.responses['400']!['x-error-codes']).toContain('VALIDATION_FAILED');

    const get = find('getGacha');
    expect(get.path).toBe('/gachas/{gachaId}');
    expect(get.op.parameters).toEqual([expect.objectContaining({ name: 'gachaId', in: 'path', required: true })]);
    // The list's Gacha plus the キリ番賞 (docs/decisions/027).
    expect(get.op.responses['200']!.content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/GachaDetail',
    });
    expect(Object.keys(document.components!.schemas!)).toEqual(
      expect.arrayContaining(['GachaDetail', 'KiribanProgress']),
    );
    expect(get.op.responses['404']).toMatchObject({
      'x-error-codes': ['GACHA_NOT_FOUND'],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    });

    const gacha = document.components.schemas.Gacha as {
      properties: Record<string, { type?: string }>;
      required: string[];
    };
    expect(gacha.properties.pricePerDraw!.type).toBe('integer');
    expect(gacha.properties.status).toEqual({ $ref: '#/components/schemas/GachaStatus' });
    expect(gacha.required).toEqual(expect.arrayContaining(['id', 'title', 'pricePerDraw', 'remainingLots', 'status']));
    expect(document.components.schemas.GachaList).toMatchObject({
      properties: {
        items: { type: 'array', items: { $ref: '#/components/schemas/Gacha' } },
        nextCursor: { type: ['string', 'null'] },
      },
    });
  });
  it('describes the error body once and refers to it from every error response', () => {
    expect(document.components.schemas.ErrorResponse).toMatchObject({
      properties: { error: { required: ['code', 'message'] } },
    });
    for (const { op } of operationsOf(document)) {
      expect(op.responses['500']!.content!['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorResponse',
      });
    }
  });
  it('documents member operations: security, 401, the body, Idempotency-Key and 415', () => {
    const create = find('createTestOrder').op;
    expect(create.security).toEqual([{ sessionCookie: [] }, { sessionBearer: [] }]);
    expect(create.responses['401']!['x-error-codes']).toEqual(['UNAUTHENTICATED']);
    expect(create.responses['415']!['x-error-codes']).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    expect(create.responses['400']!['x-error-codes']).toEqual(
      expect.arrayContaining([
        'VALIDATION_FAILED',
        'INVALID_JSON',
        'IDEMPOTENCY_KEY_REQUIRED',
        'IDEMPOTENCY_KEY_INVALID',
      ]),
    );
    expect(create.responses['429']!.headers!['Retry-After']).toBeDefined();
    expect(create.parameters).toEqual([
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: expect.objectContaining({ maxLength: 255 }),
      }),
    ]);
    // The body is accepted without `count` (it has a default), so requests see the input form.
    expect(create.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TestOrderInput' } } },
    });
    expect(document.components.schemas.TestOrderInput).toMatchObject({ properties: { count: { default: 1 } } });
    expect((document.components.schemas.TestOrderInput as { required?: string[] }).required ?? []).not.toContain(
      'count',
    );
    expect((document.components.schemas.TestOrder as { required: string[] }).required).toContain('count');
    expect(find('listTestOrders').op.responses['403']!['x-error-codes']).toEqual(['FORBIDDEN']);
  });
  it('has only references that resolve, and no trace of the generator', () => {
    for (const ref of allRefs(document)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/__in_|__out_|__INPUT__|"\$schema"|"\$id"/);
  });
  it('builds from the operation modules alone', () => {
    const alone = buildOpenApiDocument(API_V1_OPERATION_MODULES.flat(), { title: 't', version: '1.0.0' });
    // The operationIds the draw issue names, plus the keep choice, the live counts and the reveal file;
    // the coin shop's, the password policy, the address book's and the shipping requests' (issue 12),
    // and issue 14's: the login bonus, the mailbox, the level, the rank, the ranking boards, the invitations
    // and the self-limits; issue 16's farm and friends; issue 33's public draw log of a beacon pack; issue 34's
    // waiting room.
    expect(
      operationsOf(alone)
        .map(({ op }) => op.operationId)
        .sort(),
    ).toEqual([
      'acceptFriendRequest',
      'cancelSelfLimitChange',
      'cancelShippingRequest',
      'changeSelfLimits',
      'claimAllMyMailAttachments',
      'claimLoginBonus',
      'claimMyMailAttachment',
      'clearFarmPlot',
      'convertPrizes',
      'createAddress',
      'createAppHandoff',
      'createDraw',
      'createPurchase',
      'createShippingRequest',
      'declareAge',
      'declineFriendRequest',
      'deleteAddress',
      'enterInvitationCode',
      'getCoinShop',
      'getDrawResult',
      'getFarm',
      'getFriends',
      'getGacha',
      'getGachaDrawLog',
      'getGachaRemaining',
      'getGachaReveal',
      'getInvitation',
      'getLoginBonus',
      'getMyLevel',
      'getMyMail',
      'getMyRank',
      'getMyUnreadMailCount',
      'getPasswordPolicy',
      'getPurchase',
      'getRankingBoard',
      'getSelfLimits',
      'getShippingRequest',
      'getWaitingRoom',
      'getWallet',
      'harvestFarmPlot',
      'joinWaitingRoom',
      'keepPrizes',
      'leaveWaitingRoom',
      'listAddresses',
      'listGachas',
      'listGenres',
      'listMyDraws',
      'listMyMails',
      'listPrizes',
      'listPromoRedemptions',
      'listPurchases',
      'listShippingRequests',
      'listWalletEntries',
      'listWinners',
      'lookupPostalCode',
      'plantFarmSeed',
      'quoteShippingRequest',
      'redeemPromoCode',
      'removeFriend',
      'requestFriend',
      'startSelfExclusion',
      'undoPrizeConversion',
      'updateAddress',
      'waterFarmPlot',
      'waterFriendFarm',
    ]);
    expect(alone.servers).toEqual([{ url: '/api/v1' }]);
  });
});

describe('the reference page', () => {
  it('lists every operation with its method, path and summary under Japanese headings, without scripts', async () => {
    const response = await app.request('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('APIリファレンス');
    expect(html).toContain('パラメーター');
    expect(html).toContain('レスポンス');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    for (const { path, method, op } of operationsOf(document)) {
      expect(html).toContain(`id="${op.operationId}"`);
      expect(html).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`);
      expect(html).toContain(op.summary);
    }
    expect(html).toContain('ログインが必要');
    expect(html).toContain('GACHA_NOT_FOUND');
  });
  it('describes types briefly', () => {
    expect(describeType({ $ref: '#/components/schemas/Gacha' })).toBe('Gacha');
    expect(describeType({ type: 'array', items: { $ref: '#/components/schemas/Gacha' } })).toBe('Gacha[]');
    expect(describeType({ type: 'integer', minimum: 1, maximum: 100 })).toBe('integer (1〜100)');
    expect(describeType({ type: ['string', 'null'] })).toBe('string | null');
    expect(describeType({ type: 'string', enum: ['a', 'b'] })).toBe('"a" | "b"');
  });
});
