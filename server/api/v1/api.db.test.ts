// /api/v1 on a real migrated database with the demo data: the catalogue operations, members signed
// in by cookie and by bearer token, and the API mounted in the shop's Hono app (server/app.ts).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { z } from 'zod';
import { createApiV1 } from './index';
import { defineOperation } from './registry';
import { gachaSchema, genreSchema } from './catalogue';
import { createApiTestServices, requestJson, signUpTestMember, TEST_ORIGIN } from './testing';
import { createServerApp } from '#server/app';
import { DEMO_PACKS } from '#db/demo/seed';
import { listGachas } from '#modules/gacha';
import type { ShopServices } from '#server/services';
import { eq } from 'drizzle-orm';
import { users } from '#db/schema';

const whoAmI = defineOperation({
  operationId: 'getTestMe',
  method: 'get',
  path: '/me/test',
  summary: 'テスト用（ログインが必要）',
  tags: ['test'],
  auth: 'member',
  responses: { 200: { description: '自分', schema: z.object({ id: z.string(), staff: z.boolean() }) } },
  handler: ({ member }) => ({ status: 200, body: { id: member.id, staff: member.role === 'admin' } }),
});

const staffOnly = defineOperation({
  operationId: 'getTestStaff',
  method: 'get',
  path: '/staff/test',
  summary: 'テスト用（運営のみ）',
  tags: ['test'],
  auth: 'staff',
  responses: { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } },
  handler: () => ({ status: 200, body: { ok: true as const } }),
});

const maybeMember = defineOperation({
  operationId: 'getTestMaybe',
  method: 'get',
  path: '/test-maybe',
  summary: 'テスト用（ログイン任意）',
  tags: ['test'],
  auth: 'optional',
  responses: { 200: { description: 'ok', schema: z.object({ memberId: z.string().nullable() }) } },
  handler: ({ member }) => ({ status: 200, body: { memberId: member?.id ?? null } }),
});

let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('api_v1'));
  api = createApiV1(services, { extraOperations: [whoAmI, staffOnly, maybeMember] });
});
afterAll(async () => {
  await close?.();
});

describe('GET /genres', () => {
  it('lists the visible genres in order with absolute icon URLs', async () => {
    const response = await requestJson(api, '/genres');
    expect(response.status).toBe(200);
    expect(response.json.items.map((g: { id: string }) => g.id)).toEqual([
      'pokemon',
      'onepiece',
      'yugioh',
      'duelmasters',
      'weiss',
    ]);
    expect(response.json.items[0]).toEqual({
      id: 'pokemon',
      name: 'ポケモン',
      iconUrl: `${TEST_ORIGIN}/demo/genres/pokemon.svg`,
    });
    expect(response.json.nextCursor).toBeNull();
    for (const genre of response.json.items) expect(genreSchema.safeParse(genre).success).toBe(true);
  });
  it('pages with cursor and limit', async () => {
    const first = await requestJson(api, '/genres?limit=2');
    expect(first.json.items).toHaveLength(2);
    const second = await requestJson(api, `/genres?limit=2&cursor=${first.json.nextCursor}`);
    expect(second.json.items.map((g: { id: string }) => g.id)).toEqual(['yugioh', 'duelmasters']);
  });
});

describe('GET /gachas', () => {
  it('lists the public packs with the default limit', async () => {
    const response = await requestJson(api, '/gachas');
    expect(response.status).toBe(200);
    expect(response.json.items).toHaveLength(DEMO_PACKS.length);
    expect(response.json.nextCursor).toBeNull();
    for (const gacha of response.json.items) expect(gachaSchema.safeParse(gacha).success).toBe(true);
    const first = response.json.items.find((g: { id: string }) => g.id === 'stellar-pokemon-001');
    expect(first).toMatchObject({
      genreId: 'pokemon',
      title: '星降る夜のハイレアオリパ',
      pricePerDraw: 500,
      totalLots: 1000,
      status: 'on_sale',
      imageUrl: `${TEST_ORIGIN}/demo/packs/pack-01.svg`,
    });
    expect(response.json.items.at(-1).status).toBe('sold_out');
  });
  it('pages through every pack in the module order, once each', async () => {
    const expected = (await listGachas(services.db, { sort: 'price_asc' })).map((g) => g.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await requestJson(
        api,
        `/gachas?sort=price_asc&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status).toBe(200);
      expect(response.json.items.length).toBeLessThanOrEqual(5);
      seen.push(...response.json.items.map((g: { id: string }) => g.id));
      cursor = response.json.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(DEMO_PACKS.length / 5));
  });
  it('filters by genre id or alias, and answers 404 for an unknown genre', async () => {
    const pokemon = await requestJson(api, '/gachas?genreId=pokemon');
    expect(pokemon.json.items.length).toBe(DEMO_PACKS.filter((p) => p.genreId === 'pokemon').length);
    expect(pokemon.json.items.every((g: { genreId: string }) => g.genreId === 'pokemon')).toBe(true);
    const alias = await requestJson(api, '/gachas?genreId=one-piece');
    expect(alias.json.items.every((g: { genreId: string }) => g.genreId === 'onepiece')).toBe(true);
    const unknown = await requestJson(api, '/gachas?genreId=nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 'GENRE_NOT_FOUND', message: 'ジャンルが見つかりません。' });
  });
  it('sorts by price', async () => {
    const response = await requestJson(api, '/gachas?sort=price_desc');
    const onSale = response.json.items
      .filter((g: { status: string }) => g.status === 'on_sale')
      .map((g: { pricePerDraw: number }) => g.pricePerDraw);
    expect(onSale).toEqual([...onSale].sort((a, b) => b - a));
  });
  it('refuses a bad sort or limit with 400 and Japanese field messages', async () => {
    const response = await requestJson(api, '/gachas?sort=cheap&limit=101');
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: '入力内容に誤りがあります。',
      details: {
        fields: {
          sort: 'recommended、new、price_asc、price_desc のいずれかを指定してください。',
          limit: '100以下で指定してください。',
        },
      },
    });
  });
  it('refuses a cursor it did not make, or one from another filter, with 400 CURSOR_INVALID', async () => {
    for (const cursor of ['garbage', 'eyJvIjotMX0', '!!!']) {
      const response = await requestJson(api, `/gachas?cursor=${encodeURIComponent(cursor)}`);
      expect(response.status).toBe(400);
      expect(response.json.error.code).toBe('CURSOR_INVALID');
      expect(response.json.error.message).toMatch(/ページの指定が正しくありません/);
    }
    const pokemonPage = await requestJson(api, '/gachas?genreId=pokemon&limit=1');
    const other = await requestJson(api, `/gachas?genreId=weiss&limit=1&cursor=${pokemonPage.json.nextCursor}`);
    expect(other.status).toBe(400);
    expect(other.json.error.code).toBe('CURSOR_INVALID');
  });
});

describe('GET /gachas/{gachaId}', () => {
  it('answers the pack', async () => {
    const response = await requestJson(api, '/gachas/stellar-onepiece-001');
    expect(response.status).toBe(200);
    expect(gachaSchema.parse(response.json)).toMatchObject({
      id: 'stellar-onepiece-001',
      title: '大海原のパラレル大当たりオリパ',
      genreId: 'onepiece',
    });
  });
  it('answers 404 GACHA_NOT_FOUND for a pack that does not exist or could not', async () => {
    for (const id of ['missing', 'a%20b', '%E3%81%82']) {
      const response = await requestJson(api, `/gachas/${id}`);
      expect(response.status).toBe(404);
      expect(response.json.error).toMatchObject({ code: 'GACHA_NOT_FOUND', message: 'ガチャが見つかりません。' });
    }
  });
});

describe('members', () => {
  let member: Awaited<ReturnType<typeof signUpTestMember>>;
  let staff: Awaited<ReturnType<typeof signUpTestMember>>;
  beforeAll(async () => {
    member = await signUpTestMember(services);
    staff = await signUpTestMember(services, { admin: true });
  });

  it('are signed in by the session cookie', async () => {
    const response = await requestJson(api, '/me/test', { headers: { cookie: member.cookie } });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ id: member.id, staff: false });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });
  it('are signed in by the same session as a bearer token', async () => {
    const response = await requestJson(api, '/me/test', { headers: { authorization: `Bearer ${member.bearer}` } });
    expect(response.status).toBe(200);
    expect(response.json.id).toBe(member.id);
  });
  it("are signed in by the raw session token through better-auth's bearer plugin", async () => {
    expect(member.rawToken).not.toContain('.');
    const response = await requestJson(api, '/me/test', { headers: { authorization: `Bearer ${member.rawToken}` } });
    expect(response.status).toBe(200);
    expect(response.json.id).toBe(member.id);
  });
  it('are not signed in by a forged, unknown or malformed token', async () => {
    const [token, signature] = decodeURIComponent(member.bearer).split('.');
    for (const authorization of [
      `Bearer ${token}.${'A'.repeat(signature!.length)}`,
      'Bearer nothing.here',
      'Bearer ',
      'Basic abc',
      `Bearer ${member.bearer};x=1`,
    ]) {
      const response = await requestJson(api, '/me/test', { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(response.json.error.code).toBe('UNAUTHENTICATED');
    }
    const cookie = await requestJson(api, '/me/test', {
      headers: { cookie: `${member.cookie.split('=')[0]}=forged.value` },
    });
    expect(cookie.status).toBe(401);
  });
  it('reach staff operations only when their role is admin', async () => {
    const refused = await requestJson(api, '/staff/test', { headers: { cookie: member.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: 'FORBIDDEN', message: 'この操作を行う権限がありません。' });
    // Staff without the second factor are refused until TOTP is on (decision 016; the real setup: modules/identity/two-factor.db.test.ts).
    const noSecondFactor = await requestJson(api, '/staff/test', { headers: { cookie: staff.cookie } });
    expect(noSecondFactor.status).toBe(403);
    expect(noSecondFactor.json.error.code).toBe('SECOND_FACTOR_REQUIRED');
    expect(noSecondFactor.json.error.message).toContain('二段階認証');
    await services.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, staff.id));
    const allowed = await requestJson(api, '/staff/test', { headers: { cookie: staff.cookie } });
    expect(allowed.status).toBe(200);
    const me = await requestJson(api, '/me/test', { headers: { cookie: staff.cookie } });
    expect(me.json.staff).toBe(true);
  });
  it('are optional where the operation says so', async () => {
    expect((await requestJson(api, '/test-maybe')).json).toEqual({ memberId: null });
    expect((await requestJson(api, '/test-maybe', { headers: { cookie: member.cookie } })).json).toEqual({
      memberId: member.id,
    });
  });
});

describe('in the shop app', () => {
  let shop: ReturnType<typeof createServerApp>;
  beforeAll(() => {
    shop = createServerApp({
      services,
      build: async () => {
        throw new Error('no pages in this test');
      },
      publicDir: 'public',
    });
  });
  it('answers /api/v1 with the shop request id and security headers', async () => {
    const response = await shop.request('/api/v1/gachas/stellar-pokemon-001');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await shop.request('/api/v1/gachas/missing');
    const body = await missing.json();
    expect(body.error.requestId).toBe(missing.headers.get('x-request-id'));
  });
  it('keeps answering unknown API paths with the JSON 404', async () => {
    for (const path of ['/api/v1/nothing', '/api/v1', '/api/v2/gachas']) {
      const response = await shop.request(path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.code).toBe('NOT_FOUND');
    }
  });
  it('serves openapi.json and the reference page under the CSP, the page with no script', async () => {
    const document = await shop.request('/api/v1/openapi.json');
    expect(document.status).toBe(200);
    expect((await document.json()).openapi).toMatch(/^3\.1\./);
    const page = await shop.request('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-/);
    expect(await page.text()).not.toMatch(/<script/i);
  });
  it('refuses a cross-site state change before the operation runs', async () => {
    const response = await shop.request('/api/v1/gachas', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(403);
  });
});
