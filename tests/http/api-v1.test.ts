// The JSON API under /api/v1 on the built shop: openapi.json, the reference page, the catalogue,
// errors in docs/api.md's shape, and the sign-in wall of member operations.
import { describe, it, expect, beforeAll } from 'vitest';
import { get, shopUrl } from '#tests/http';

interface Operation {
  operationId: string;
  summary: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean }[];
  responses: Record<string, unknown>;
  'x-auth': string;
}
let document: {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );

async function getJson(path: string, headers: Record<string, string> = {}) {
  const page = await get(path, { headers });
  return { status: page.status, headers: page.headers, json: JSON.parse(page.body) };
}

beforeAll(async () => {
  const response = await getJson('/api/v1/openapi.json');
  expect(response.status).toBe(200);
  document = response.json;
});

describe('openapi.json', () => {
  it('is OpenAPI 3.1 with unique camelCase operationIds and the catalogue', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(ids).toEqual(expect.arrayContaining(['listGenres', 'listGachas', 'getGacha']));
    expect(document.paths['/gachas/{gachaId}']?.get?.operationId).toBe('getGacha');
    expect(document.components.schemas.Gacha).toBeDefined();
    expect(document.components.schemas.ErrorResponse).toBeDefined();
  });
});

describe('the reference page', () => {
  it('lists the operations in Japanese, under the CSP, without scripts', async () => {
    const page = await get('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('APIリファレンス');
    expect(page.body).not.toMatch(/<script/i);
    for (const { path, op } of operations()) {
      expect(page.body).toContain(path.replace(/&/g, '&amp;'));
      expect(page.body).toContain(op.summary);
    }
  });
});

describe('the catalogue', () => {
  it('lists genres and pages through the packs', async () => {
    const genres = await getJson('/api/v1/genres');
    expect(genres.status).toBe(200);
    expect(genres.json.items.map((g: { id: string }) => g.id)).toContain('pokemon');

    const first = await getJson('/api/v1/gachas?limit=3');
    expect(first.status).toBe(200);
    expect(first.json.items).toHaveLength(3);
    expect(typeof first.json.nextCursor).toBe('string');
    const second = await getJson(`/api/v1/gachas?limit=3&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect(second.json.items).toHaveLength(3);
    const ids = [...first.json.items, ...second.json.items].map((g: { id: string }) => g.id);
    expect(new Set(ids).size).toBe(6);
    for (const gacha of first.json.items) {
      expect(Number.isInteger(gacha.pricePerDraw)).toBe(true);
      expect(gacha.imageUrl).toMatch(/^https?:\/\//);
    }
  });
  it('answers one pack, and 404 GACHA_NOT_FOUND for a missing one', async () => {
    const list = await getJson('/api/v1/gachas?limit=1');
    const id = list.json.items[0].id as string;
    const pack = await getJson(`/api/v1/gachas/${id}`);
    expect(pack.status).toBe(200);
    expect(pack.json.id).toBe(id);
    const missing = await getJson('/api/v1/gachas/no-such-pack');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'GACHA_NOT_FOUND', message: 'ガチャが見つかりません。' });
    expect(missing.json.error.requestId).toBe(missing.headers.get('x-request-id'));
  });
});

describe('the public draw log of a beacon pack', () => {
  it('is described as a public operation paged by sequence number', () => {
    const op = document.paths['/gachas/{gachaId}/draw-log']?.get;
    expect(op?.operationId).toBe('getGachaDrawLog');
    expect(op?.['x-auth']).toBe('none');
    expect(op?.parameters?.map((p) => p.name).sort()).toEqual(['after', 'gachaId', 'limit']);
    expect(document.components.schemas.BeaconLogPage).toBeDefined();
  });
  it('answers 404 for a pack that is not a beacon pack and for an unknown one, 400 for bad paging', async () => {
    const list = await getJson('/api/v1/gachas?limit=1');
    const id = list.json.items[0].id as string;
    const sequence = await getJson(`/api/v1/gachas/${id}/draw-log`);
    expect(sequence.status).toBe(404);
    expect(sequence.json.error).toMatchObject({
      code: 'DRAW_LOG_NOT_FOUND',
      message: 'このガチャには抽選ごとの公開ログがありません（ビーコン抽選のガチャだけが公開します）。',
    });
    const missing = await getJson('/api/v1/gachas/no-such-pack/draw-log');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'GACHA_NOT_FOUND', message: 'ガチャが見つかりません。' });
    const bad = await getJson(`/api/v1/gachas/${id}/draw-log?after=-1&limit=501`);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(bad.json.error.details.fields).sort()).toEqual(['after', 'limit']);
    for (const message of Object.values(bad.json.error.details.fields)) expect(message).toMatch(/[ぁ-んァ-ン一-龥]/);
  });
});

describe('errors', () => {
  it('answers bad input with 400 and Japanese messages per field, never a 500', async () => {
    const response = await getJson('/api/v1/gachas?limit=abc&sort=%00');
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code: 'VALIDATION_FAILED', message: '入力内容に誤りがあります。' });
    expect(response.json.error.details.fields.limit).toBe('数値で指定してください。');
    expect(response.json.error.details.fields.sort).toMatch(/のいずれかを指定してください。$/);
  });
  it('answers a cursor it did not make with 400 CURSOR_INVALID', async () => {
    const response = await getJson('/api/v1/gachas?cursor=not-a-cursor');
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe('CURSOR_INVALID');
  });
  it('answers unknown paths with the JSON 404 and other methods with 405', async () => {
    const missing = await getJson('/api/v1/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
    const response = await fetch(shopUrl() + '/api/v1/gachas', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await response.json()).error.code).toBe('METHOD_NOT_ALLOWED');
  });
  it('answers every member operation without a session with 401 UNAUTHENTICATED', async () => {
    const memberOperations = operations().filter(({ op }) => op['x-auth'] === 'member' || op['x-auth'] === 'staff');
    for (const { path, method, op } of memberOperations) {
      expect(op.security.length).toBeGreaterThan(0);
      const url = shopUrl() + '/api/v1' + path.replace(/\{[^}]+\}/g, 'x');
      const response = await fetch(url, {
        method: method.toUpperCase(),
        headers: { 'content-type': 'application/json' },
        body: method === 'get' ? undefined : '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect((await response.json()).error).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: 'ログインしてください。',
      });
    }
  });
});

describe('the password policy', () => {
  it('is published for the forms and the app: schema version 1, the settings’ rules', async () => {
    const page = await get('/api/v1/password-policy');
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body)).toEqual({
      schemaVersion: 1,
      mode: 'enforce',
      minLength: 8,
      maxLength: null,
      requireLowercase: false,
      requireUppercase: false,
      requireNumeric: false,
      requireNonAlphanumeric: false,
    });
  });
});
