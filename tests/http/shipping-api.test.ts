// Shipping requests over HTTP against the built shop: sign-in required, the Idempotency-Key (required;
// a retry answers the same request, another body under it is 409), bad input a 4xx with a Japanese
// message and never a 500, the verified phone, another member's request 404 (read and cancel), the
// cancel, and the cross-site check. Members, coins and the phone's verification are made on the shop's
// database (PostgreSQL), prizes by drawing through the API and addresses through the address API.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { runAdminCommand } from '../../scripts/shop-admin';
import { testShop } from '#tests/test-shop';

const base = testShop().url;
const databaseUrl = testShop().databaseUrl;
const PACK = 'stellar-pokemon-003'; // 100 coins a draw
const japanese = /[ぁ-んァ-ン一-龥]/;
let handle: DatabaseHandle | undefined;

interface Member {
  id: string;
  token: string;
  prizeIds: string[];
  addressId: string;
}
let alice: Member;
let bob: Member;

async function api(
  path: string,
  options: {
    token?: string;
    method?: string;
    body?: unknown;
    raw?: string;
    key?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.key) headers['idempotency-key'] = options.key;
  if (options.body !== undefined || options.raw !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${base}/api/v1${path}`, {
    method: options.method ?? (options.body !== undefined || options.raw !== undefined ? 'POST' : 'GET'),
    headers,
    body: options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const address = {
  name: '山田 太郎',
  nameKana: 'ヤマダ タロウ',
  postalCode: '100-0001',
  prefecture: '東京都',
  city: '千代田区',
  town: '千代田1-1',
  phone: '090-1234-5678',
};

async function ready(member: { id: string; token: string }): Promise<Member> {
  const drawn = await api(`/gachas/${PACK}/draws`, { token: member.token, body: { count: 10 }, key: randomUUID() });
  expect(drawn.status).toBe(201);
  const created = await api('/me/addresses', { token: member.token, body: address });
  expect(created.status).toBe(201);
  return { ...member, prizeIds: drawn.body.items.map((i: { id: string }) => i.id), addressId: created.body.id };
}

const verifyPhone = (memberId: string, number: string) =>
  handle!.db.update(users).set({ phoneNumber: number, phoneNumberVerified: true }).where(eq(users.id, memberId));

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  const lines: string[] = [];
  await runAdminCommand(
    handle.db,
    ['members:create', '--count', '2', '--coins', '5000', '--prefix', 'shipapi'],
    (line) => lines.push(line),
    { lifetimes: TEST_RULES.coinLifetimes },
  );
  const { members } = JSON.parse(lines[0]!) as { members: { id: string; token: string }[] };
  alice = await ready(members[0]!);
  bob = await ready(members[1]!);
  await verifyPhone(bob.id, '+819011112222');
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `shipping request API${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for members and phones)'}`,
  () => {
    it('asks for a sign-in on every operation', async () => {
      const id = randomUUID();
      for (const [path, method] of [
        ['/me/shipping-quotes', 'POST'],
        ['/me/shipping-requests', 'POST'],
        ['/me/shipping-requests', 'GET'],
        [`/me/shipping-requests/${id}`, 'GET'],
        [`/me/shipping-requests/${id}/cancellation`, 'POST'],
      ] as const) {
        const answer = await api(path, { method, ...(method === 'POST' ? { body: {} } : {}) });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body.error.code).toBe('UNAUTHENTICATED');
      }
    });

    it('refuses bad input with a Japanese message, never a 500', async () => {
      const noKey = await api('/me/shipping-requests', {
        token: alice.token,
        body: { prizeIds: alice.prizeIds.slice(0, 1), addressId: alice.addressId },
      });
      expect(noKey.status).toBe(400);
      expect(noKey.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
      for (const body of [
        {},
        { prizeIds: [], addressId: alice.addressId },
        { prizeIds: ['not-an-id'], addressId: alice.addressId },
        { prizeIds: alice.prizeIds.slice(0, 1), addressId: 'x' },
        { prizeIds: alice.prizeIds.slice(0, 1), addressId: alice.addressId, feeCoins: -1 },
        { prizeIds: Array.from({ length: 201 }, () => randomUUID()), addressId: alice.addressId },
      ]) {
        const answer = await api('/me/shipping-requests', { token: alice.token, body, key: randomUUID() });
        expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(answer.body.error.code).toBe('VALIDATION_FAILED');
        expect(answer.body.error.message).toMatch(japanese);
      }
      const broken = await api('/me/shipping-requests', { token: alice.token, raw: '{"prizeIds":', key: randomUUID() });
      expect(broken.status).toBe(400);
      for (const path of ['/me/shipping-requests/nope', `/me/shipping-requests/${'x'.repeat(100)}`]) {
        const answer = await api(path, { token: alice.token });
        expect(answer.status).toBe(404);
        expect(answer.body.error.message).toMatch(japanese);
      }
      const cursor = await api('/me/shipping-requests?cursor=garbage', { token: alice.token });
      expect(cursor.status).toBe(400);
      const status = await api('/me/shipping-requests?status=lost', { token: alice.token });
      expect(status.status).toBe(400);
      expect(status.body.error.code).toBe('VALIDATION_FAILED');
    });

    it('asks for a verified phone number first, and says so', async () => {
      const quote = await api('/me/shipping-quotes', { token: alice.token, body: { prizeIds: alice.prizeIds } });
      expect(quote.status).toBe(422);
      expect(quote.body.error).toMatchObject({
        code: 'SHIPPING_PHONE_UNVERIFIED',
        message: expect.stringContaining('電話番号'),
      });
      const refused = await api('/me/shipping-requests', {
        token: alice.token,
        body: { prizeIds: alice.prizeIds.slice(0, 2), addressId: alice.addressId },
        key: randomUUID(),
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('SHIPPING_PHONE_UNVERIFIED');
      await verifyPhone(alice.id, '+819033334444');
    });

    it('quotes, requests once per key, lists, shows, and refuses the key for another body', async () => {
      const prizeIds = alice.prizeIds.slice(0, 3);
      const quote = await api('/me/shipping-quotes', { token: alice.token, body: { prizeIds } });
      expect(quote.status).toBe(200);
      expect(quote.body).toMatchObject({
        feeCoins: 0,
        minPrizes: 1,
        promisedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      expect(quote.body.items).toHaveLength(3);

      const key = randomUUID();
      const body = { prizeIds, addressId: alice.addressId, feeCoins: 0 };
      const made = await api('/me/shipping-requests', { token: alice.token, body, key });
      expect(made.status).toBe(201);
      expect(made.headers.get('idempotent-replayed')).toBeNull();
      const request = made.body.shippingRequest;
      expect(request).toMatchObject({
        status: 'requested',
        itemCount: 3,
        promisedDate: quote.body.promisedDate,
        cancelable: true,
        address: { name: '山田 太郎', postalCode: '1000001' },
        events: [{ kind: 'requested', status: 'requested', actor: 'member' }],
      });
      expect(made.headers.get('cache-control')).toBe('private, no-store');

      const again = await api('/me/shipping-requests', { token: alice.token, body, key });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.shippingRequest.id).toBe(request.id);
      const other = await api('/me/shipping-requests', {
        token: alice.token,
        body: { ...body, prizeIds: alice.prizeIds.slice(3, 4) },
        key,
      });
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      // A prize already in a request cannot be asked for again.
      const twice = await api('/me/shipping-requests', { token: alice.token, body, key: randomUUID() });
      expect(twice.status).toBe(409);
      expect(twice.body.error).toMatchObject({
        code: 'PRIZE_ALREADY_DECIDED',
        message: expect.stringMatching(japanese),
      });
      const changedFee = await api('/me/shipping-requests', {
        token: alice.token,
        body: { ...body, prizeIds: alice.prizeIds.slice(3, 4), feeCoins: 100 },
        key: randomUUID(),
      });
      expect(changedFee.status).toBe(409);
      expect(changedFee.body.error.code).toBe('SHIPPING_FEE_CHANGED');

      const list = await api('/me/shipping-requests?limit=1', { token: alice.token });
      expect(list.status).toBe(200);
      expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([request.id]);
      const shown = await api(`/me/shipping-requests/${request.id}`, { token: alice.token });
      expect(shown.status).toBe(200);
      expect(shown.body.shippingRequest.items.map((i: { prizeId: string }) => i.prizeId).sort()).toEqual(
        [...prizeIds].sort(),
      );
      const prizes = await api('/me/prizes?status=shipping', { token: alice.token });
      expect(prizes.body.items.map((p: { id: string }) => p.id).sort()).toEqual([...prizeIds].sort());
    });

    it('never shows nor cancels another member’s request, nor takes another member’s prize or address', async () => {
      const mine = await api('/me/shipping-requests', {
        token: bob.token,
        body: { prizeIds: bob.prizeIds.slice(0, 1), addressId: bob.addressId },
        key: randomUUID(),
      });
      expect(mine.status).toBe(201);
      const id = mine.body.shippingRequest.id;
      expect((await api(`/me/shipping-requests/${id}`, { token: alice.token })).status).toBe(404);
      const cancel = await api(`/me/shipping-requests/${id}/cancellation`, { token: alice.token, method: 'POST' });
      expect(cancel.status).toBe(404);
      expect(cancel.body.error.code).toBe('SHIPPING_REQUEST_NOT_FOUND');
      expect(
        (await api('/me/shipping-requests', { token: alice.token })).body.items.map((r: { id: string }) => r.id),
      ).not.toContain(id);
      const theirPrize = await api('/me/shipping-requests', {
        token: alice.token,
        body: { prizeIds: bob.prizeIds.slice(1, 2), addressId: alice.addressId },
        key: randomUUID(),
      });
      expect(theirPrize.status).toBe(404);
      expect(theirPrize.body.error.code).toBe('PRIZE_NOT_FOUND');
      const theirAddress = await api('/me/shipping-requests', {
        token: alice.token,
        body: { prizeIds: alice.prizeIds.slice(5, 6), addressId: bob.addressId },
        key: randomUUID(),
      });
      expect(theirAddress.status).toBe(404);
      expect(theirAddress.body.error.code).toBe('ADDRESS_NOT_FOUND');
      expect((await api(`/me/shipping-requests/${id}`, { token: bob.token })).body.shippingRequest.status).toBe(
        'requested',
      );
    });

    it('cancels while requested (prizes back as kept), once, and refuses a cross-site cancel', async () => {
      const made = await api('/me/shipping-requests', {
        token: alice.token,
        body: { prizeIds: alice.prizeIds.slice(6, 8), addressId: alice.addressId },
        key: randomUUID(),
      });
      const id = made.body.shippingRequest.id;
      const crossSite = await api(`/me/shipping-requests/${id}/cancellation`, {
        token: alice.token,
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      });
      expect(crossSite.status).toBe(403);
      const canceled = await api(`/me/shipping-requests/${id}/cancellation`, { token: alice.token, method: 'POST' });
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({
        refundCoins: 0,
        shippingRequest: { status: 'canceled', cancelable: false },
      });
      const again = await api(`/me/shipping-requests/${id}/cancellation`, { token: alice.token, method: 'POST' });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({
        code: 'SHIPPING_NOT_CANCELABLE',
        message: expect.stringContaining('キャンセル'),
      });
      const kept = await api('/me/prizes?status=kept', { token: alice.token });
      expect(kept.body.items.map((p: { id: string }) => p.id)).toEqual(
        expect.arrayContaining(alice.prizeIds.slice(6, 8)),
      );
      const filtered = await api('/me/shipping-requests?status=canceled', { token: alice.token });
      expect(filtered.body.items.map((r: { id: string }) => r.id)).toEqual([id]);
    });
  },
);
