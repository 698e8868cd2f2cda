// Addresses over HTTP against the built shop: the public postal look-up, the member's address book
// through the API (bad input is a 4xx with a Japanese message, never a 500; another member's address
// is 404; the limit of 5; the cross-site check), and /mypage/addresses working without JavaScript.
import { describe, it, expect, beforeAll } from 'vitest';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';

interface Member {
  cookie: string;
  bearer: string;
}

async function signUp(label: string): Promise<Member> {
  const page = await signUpByForm({
    name: label,
    email: uniqueEmail(label),
    password: 'addresses-1',
    agreeToTerms: 'on',
  });
  const cookie = cookieFrom(page.headers);
  const bearer = /session_token=([^;]+)/.exec(cookie)?.[1];
  if (!bearer) throw new Error('no session cookie');
  return { cookie, bearer };
}

async function api(
  path: string,
  options: { member?: Member; method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.member) headers.authorization = `Bearer ${options.member.bearer}`;
  if (options.body !== undefined || options.raw !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: options.method ?? (options.body !== undefined || options.raw !== undefined ? 'POST' : 'GET'),
    headers,
    body: options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const home = {
  name: '山田　太郎',
  nameKana: 'やまだ たろう',
  postalCode: '１００－０００１',
  prefecture: '東京都',
  city: '千代田区',
  town: '千代田１ー１',
  building: 'ステラハイツ101',
  phone: '090-1234-5678',
};
const japanese = /[ぁ-んァ-ン一-龥]/;

let alice: Member;
let bob: Member;
beforeAll(async () => {
  alice = await signUp('address-alice');
  bob = await signUp('address-bob');
});

describe('lookupPostalCode', () => {
  it('answers 100-0001 however it is written, publicly and cacheably', async () => {
    for (const written of [
      '1000001',
      '100-0001',
      encodeURIComponent('１００－０００１'),
      encodeURIComponent('〒100-0001'),
    ]) {
      const found = await api(`/postal-codes/${written}`);
      expect(found.status, written).toBe(200);
      expect(found.body).toEqual({
        postalCode: '1000001',
        places: [{ postalCode: '1000001', prefecture: '東京都', city: '千代田区', town: '千代田' }],
      });
      expect(found.headers.get('cache-control')).toBe('public, max-age=86400');
    }
  });

  it('says in Japanese when the code is not 7 digits (400) or not listed (404)', async () => {
    for (const bad of ['12', '100-00011', 'abcdefg', encodeURIComponent('x'.repeat(500))]) {
      const refused = await api(`/postal-codes/${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error.details.fields.postalCode).toMatch(/7桁/);
    }
    const unknown = await api('/postal-codes/0000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'POSTAL_CODE_NOT_FOUND' });
    expect(unknown.body.error.message).toMatch(japanese);
  });
});

describe('the address book API', () => {
  it('asks for a sign-in, and refuses a cross-site write', async () => {
    expect((await api('/me/addresses')).status).toBe(401);
    expect((await api('/me/addresses', { body: home })).status).toBe(401);
    const crossSite = await api('/me/addresses', {
      member: alice,
      body: home,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect((await api('/me/addresses', { member: alice })).body.items).toEqual([]);
  });

  it('adds, lists, changes and deletes, normalising what was typed', async () => {
    const created = await api('/me/addresses', { member: alice, body: home });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: '山田 太郎',
      nameKana: 'ヤマダ タロウ',
      postalCode: '1000001',
      town: '千代田1-1',
      phone: '090-1234-5678',
      isDefault: true,
    });
    expect(created.headers.get('cache-control')).toBe('private, no-store');
    const second = await api('/me/addresses', {
      member: alice,
      body: {
        ...home,
        name: '山田 花子',
        postalCode: '5300001',
        prefecture: '大阪府',
        city: '大阪市北区',
        town: '梅田1-1',
        building: null,
      },
    });
    expect(second.status).toBe(201);
    expect(second.body.isDefault).toBe(false);

    const list = await api('/me/addresses', { member: alice });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ nextCursor: null, maxItems: 5 });
    expect(list.body.items.map((a: { id: string }) => a.id)).toEqual([created.body.id, second.body.id]);

    const changed = await api(`/me/addresses/${second.body.id}`, {
      member: alice,
      method: 'PUT',
      body: { ...home, town: '千代田2-2', isDefault: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ town: '千代田2-2', isDefault: true });
    expect((await api('/me/addresses', { member: alice })).body.items[0].id).toBe(second.body.id);

    const deleted = await api(`/me/addresses/${second.body.id}`, { member: alice, method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const after = await api('/me/addresses', { member: alice });
    expect(after.body.items).toHaveLength(1);
    expect(after.body.items[0]).toMatchObject({ id: created.body.id, isDefault: true });
  });

  it("answers another member's address as not found, and leaves it as it was", async () => {
    const [mine] = (await api('/me/addresses', { member: alice })).body.items;
    for (const [method, body] of [
      ['PUT', { ...home, name: '乗っ取り' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await api(`/me/addresses/${mine.id}`, { member: bob, method, body });
      expect(refused.status, method).toBe(404);
      expect(refused.body.error).toMatchObject({ code: 'ADDRESS_NOT_FOUND', message: '住所が見つかりません。' });
    }
    expect((await api('/me/addresses', { member: bob })).body.items).toEqual([]);
    expect((await api('/me/addresses', { member: alice })).body.items[0]).toEqual(mine);
    expect((await api('/me/addresses/not-a-uuid', { member: alice, method: 'DELETE' })).status).toBe(404);
  });

  it('answers bad input with 4xx and a Japanese message per field, never a 500', async () => {
    const empty = await api('/me/addresses', { member: alice, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_FAILED');
    expect(empty.body.error.details.fields).toMatchObject({
      name: '氏名を入力してください。',
      postalCode: '郵便番号を入力してください。',
      phone: '電話番号を入力してください。',
    });
    const mismatch = await api('/me/addresses', { member: alice, body: { ...home, prefecture: '大阪府' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details.fields.prefecture).toBe(
      '郵便番号 100-0001 は東京都の番号です。郵便番号か都道府県をご確認ください。',
    );
    const cases: { label: string; options: Parameters<typeof api>[1] }[] = [
      { label: 'kana', options: { body: { ...home, nameKana: 'Yamada' } } },
      { label: 'phone', options: { body: { ...home, phone: '0120-123-456' } } },
      { label: 'long', options: { body: { ...home, town: 'あ'.repeat(50_000) } } },
      { label: 'types', options: { body: { ...home, postalCode: 1000001, isDefault: 'yes' } } },
      { label: 'array', options: { body: [home] } },
      { label: 'null', options: { body: null } },
      { label: 'json', options: { raw: '{"name":' } },
      { label: 'media', options: { raw: 'name=x', headers: { 'content-type': 'text/plain' } } },
    ];
    for (const { label, options } of cases) {
      const refused = await api('/me/addresses', { member: alice, ...options });
      expect(refused.status, label).toBeGreaterThanOrEqual(400);
      expect(refused.status, label).toBeLessThan(500);
      expect(refused.body.error.message, label).toMatch(japanese);
    }
    expect((await api('/me/addresses', { member: alice })).body.items).toHaveLength(1);
  });

  it('holds 5 addresses and explains the limit on the sixth', async () => {
    const carol = await signUp('address-carol');
    for (let i = 0; i < 5; i += 1)
      expect((await api('/me/addresses', { member: carol, body: { ...home, name: `住所${i}` } })).status).toBe(201);
    const sixth = await api('/me/addresses', { member: carol, body: home });
    expect(sixth.status).toBe(422);
    expect(sixth.body.error).toMatchObject({
      code: 'ADDRESS_LIMIT_REACHED',
      message: '登録できる住所は5件までです。使わない住所を削除してから追加してください。',
    });
  });
});

describe('/mypage/addresses without JavaScript', () => {
  it('asks a guest to sign in (the one answer of every /mypage page, decision 002)', async () => {
    const page = await get('/mypage/addresses');
    expect(page.status).toBe(200);
    expect(page.body).toContain('ログインが必要です');
    expect(page.body).toContain('href="/auth/sign_in?redirect=%2Fmypage%2Faddresses"');
  });

  it('fills the address from the postal code, saves, makes usual and deletes after asking', async () => {
    const dave = await signUp('address-dave');
    const empty = await get('/mypage/addresses', { cookie: dave.cookie });
    expect(empty.status).toBe(200);
    expect(empty.body).toContain('登録された住所はありません');
    expect(empty.body).toContain('5件まで登録できます');
    expect((await get('/mypage?tab=menu', { cookie: dave.cookie })).body).toContain('href="/mypage/addresses"');

    const form = {
      name: '',
      nameKana: '',
      postalCode: '１００ー０００１',
      prefecture: '',
      city: '',
      town: '',
      building: '',
      phone: '',
    };
    const filled = await postForm('/mypage/addresses?new=1', { ...form, intent: 'lookup' }, { cookie: dave.cookie });
    expect(filled.status).toBe(200);
    expect(filled.body).toContain('東京都千代田区千代田を入力しました');
    expect(filled.body).toMatch(/<option value="東京都" selected="">東京都<\/option>/);
    expect(filled.body).toContain('value="千代田区"');

    const refused = await postForm('/mypage/addresses?new=1', { ...form, intent: 'save' }, { cookie: dave.cookie });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('氏名を入力してください。');
    expect(refused.body).toContain('電話番号を入力してください。');

    const fields = { ...home, intent: 'save' };
    const saved = await postForm('/mypage/addresses?new=1', fields, { cookie: dave.cookie });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe('/mypage/addresses?done=created');
    const second = await postForm('/mypage/addresses?new=1', { ...fields, name: '第二 住所' }, { cookie: dave.cookie });
    expect(second.status).toBe(302);

    const list = await api('/me/addresses', { member: dave });
    const [first, other] = list.body.items as { id: string; name: string }[];
    const page = await get('/mypage/addresses?done=created', { cookie: dave.cookie });
    expect(page.body).toContain('住所を登録しました。');
    expect(page.body).toContain('いつもの配送先');
    expect(page.body).toContain('〒100-0001');

    const usual = await postForm(
      '/mypage/addresses',
      { intent: 'default', addressId: other!.id },
      { cookie: dave.cookie },
    );
    expect(usual.location).toBe('/mypage/addresses?done=default');
    expect((await api('/me/addresses', { member: dave })).body.items[0].id).toBe(other!.id);

    const asking = await get(`/mypage/addresses?delete=${first!.id}`, { cookie: dave.cookie });
    expect(asking.body).toContain('この住所を削除しますか？');
    const deleted = await postForm(
      '/mypage/addresses',
      { intent: 'delete', addressId: first!.id },
      { cookie: dave.cookie },
    );
    expect(deleted.location).toBe('/mypage/addresses?done=deleted');
    expect((await api('/me/addresses', { member: dave })).body.items.map((a: { id: string }) => a.id)).toEqual([
      other!.id,
    ]);

    // Another member's address through the page is not found, and a link to it shows the list.
    const bobs = await postForm(
      '/mypage/addresses',
      { intent: 'delete', addressId: other!.id },
      { cookie: bob.cookie },
    );
    expect(bobs.status).toBe(404);
    expect(bobs.body).toContain('住所が見つかりません。');
    expect((await get(`/mypage/addresses?edit=${other!.id}`, { cookie: bob.cookie })).body).toContain(
      '住所が見つかりません。',
    );
  });
});
