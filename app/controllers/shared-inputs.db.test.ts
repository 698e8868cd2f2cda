// One schema per input, one catalogue per refusal: a forged page form and an API call with the same
// bad input (or the same refused choice) read the same Japanese message and get the same status.
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { RouterContextProvider } from 'react-router';
import { createApiV1 } from '#server/api/v1/index';
import { createApiTestServices, requestJson, signUpTestMember } from '#server/api/v1/testing';
import { encodeCursor } from '#server/api/v1/http';
import type { ShopServices } from '#server/services';
import { DEMO_PACKS } from '#db/demo/seed';
import { shopRequestContext, type ShopRequest } from '#server/context';
import { action as drawAction } from '~/routes/gacha/detail';
import { prizeChoiceAction } from './prize-actions.server';
import { checkoutAction } from './checkout.server';
import { sandboxHarness } from '#modules/payments/testing';
import {
  CHECKOUT_FORM_INVALID_MESSAGE,
  DEFAULT_PAYMENT_RULES,
  declareAge,
  ensureDefaultCoinPacks,
  listCoinPacks,
  listOrders,
} from '#modules/payments';
import { paymentServicesFor } from '#server/payments';

let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;
let member: Awaited<ReturnType<typeof signUpTestMember>>;
let shop: ShopRequest;

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('shared_inputs'));
  await ensureDefaultCoinPacks(services.db);
  services.payments = paymentServicesFor(sandboxHarness(services.db).gateway, DEFAULT_PAYMENT_RULES);
  api = createApiV1(services);
  member = await signUpTestMember(services);
  shop = { requestId: 'test', nonce: 'n', member: { id: member.id, role: 'user' } as ShopRequest['member'], services };
});
afterAll(async () => {
  await close?.();
});

const form = (fields: Record<string, string>) =>
  new Request('http://shop.test/mypage', { method: 'POST', body: new URLSearchParams(fields) });

/** What a page action answered: React Router's data(…) carries the body and the status. */
function answered(result: unknown): { status: number; message: string } {
  const { data, init } = result as {
    data: { message?: string; error?: { message: string } };
    init: { status: number };
  };
  return { status: init.status, message: data.message ?? data.error!.message };
}

/** The API's answer to the same input, with the message of the first field it names. */
async function apiSaid(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await requestJson(api, path, {
    method: 'POST',
    body,
    headers: { cookie: member.cookie, ...headers },
  });
  const error = response.json.error as { code: string; message: string; details?: { fields?: Record<string, string> } };
  const fieldMessage = error.details?.fields ? Object.values(error.details.fields)[0] : undefined;
  return { status: response.status, code: error.code, message: fieldMessage ?? error.message };
}

describe('prize choices: the form and POST /me/prizes/conversions', () => {
  const cases: [string, string[]][] = [
    ['an id that is not a UUID', ['not-a-uuid']],
    ['no id at all', []],
    ['more ids than one choice may name', Array.from({ length: 201 }, () => randomUUID())],
  ];
  for (const [name, prizeIds] of cases) {
    it(`refuse ${name} with the same message`, async () => {
      const viaApi = await apiSaid('/me/prizes/conversions', { prizeIds });
      expect(viaApi).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      const viaPage = answered(
        await prizeChoiceAction(shop, form({ intent: 'convert', prizeIds: prizeIds.join(',') })),
      );
      expect(viaPage).toEqual({ status: 400, message: viaApi.message });
    });
  }

  it("refuse a prize that is not the member's with the same status and message", async () => {
    const prizeId = randomUUID();
    const viaApi = await apiSaid('/me/prizes/conversions', { prizeIds: [prizeId] });
    expect(viaApi).toEqual({ status: 404, code: 'PRIZE_NOT_FOUND', message: '対象のカードが見つかりません。' });
    for (const intent of ['convert', 'keep']) {
      expect(answered(await prizeChoiceAction(shop, form({ intent, prizeIds: prizeId })))).toEqual({
        status: 404,
        message: viaApi.message,
      });
    }
  });
});

describe("a draw: the pack page's form and POST /gachas/{gachaId}/draws", () => {
  const pack = DEMO_PACKS[0]!;
  async function pageSaid(count: string) {
    const context = new RouterContextProvider();
    context.set(shopRequestContext, shop);
    const request = new Request(`http://shop.test/gacha/${pack.genreId}/${pack.id}`, {
      method: 'POST',
      body: new URLSearchParams({ count, idempotencyKey: randomUUID() }),
    });
    return answered(
      await drawAction({ request, params: { genreId: pack.genreId, gachaId: pack.id }, context } as never),
    );
  }

  for (const [name, count] of [
    ['zero lots', 0],
    ['more lots than any draw', 1001],
    ['a fraction', 1.5],
  ] as const) {
    it(`refuse ${name} with the same message`, async () => {
      const viaApi = await apiSaid(`/gachas/${pack.id}/draws`, { count }, { 'Idempotency-Key': randomUUID() });
      expect(viaApi).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(await pageSaid(String(count))).toEqual({ status: 400, message: viaApi.message });
    });
  }

  it("refuse a count the pack does not offer with the catalogue's message on both", async () => {
    const count = 7;
    const viaApi = await apiSaid(`/gachas/${pack.id}/draws`, { count }, { 'Idempotency-Key': randomUUID() });
    expect(viaApi).toEqual({ status: 400, code: 'DRAW_COUNT_INVALID', message: 'このガチャでは選べない回数です。' });
    expect(await pageSaid(String(count))).toEqual({ status: 400, message: viaApi.message });
  });
});

describe("a prize box position: the page's links and GET /me/prizes' cursor", () => {
  it('answers an impossible instant in a forged cursor with 400 CURSOR_INVALID, not a database error', async () => {
    // Before the shared schema the API checked only the pattern, and 2024-02-31 reached the database (500).
    for (const createdAt of ['2024-02-31T00:00:00.000000Z', '2024-13-01T00:00:00Z']) {
      const cursor = encodeCursor({ createdAt, id: randomUUID() });
      const response = await requestJson(api, `/me/prizes?cursor=${cursor}`, { headers: { cookie: member.cookie } });
      expect([createdAt, response.status, response.json.error.code]).toEqual([createdAt, 400, 'CURSOR_INVALID']);
    }
    const good = encodeCursor({ createdAt: '2024-02-28T00:00:00.123456Z', id: randomUUID() });
    expect((await requestJson(api, `/me/prizes?cursor=${good}`, { headers: { cookie: member.cookie } })).status).toBe(
      200,
    );
  });
});

describe("a coin purchase: the confirmation screen's button and POST /me/purchases", () => {
  /** The confirm button's fields as the screen renders them for the 500-coin pack. */
  async function confirmFields() {
    const packs = await listCoinPacks(services.db, {
      rank: { rank: 0, name: 'レギュラー', bonusPercent: 0 },
      hasPurchased: true,
    });
    const pack = packs.find((p) => p.available)!;
    return { pack: pack.id, orderKey: randomUUID(), price: String(pack.priceJpy), coins: String(pack.totalCoins) };
  }
  const confirm = (fields: Record<string, string>) =>
    checkoutAction(
      shop,
      new Request('http://shop.test/shop/checkout/sandbox', { method: 'POST', body: new URLSearchParams(fields) }),
      'sandbox',
      'web',
    );
  const ordersOfMember = async () => (await listOrders(services.db, member.id, { limit: 100, before: null })).items;

  it('refuse a pack id that is not one with the same message, and open no order', async () => {
    const before = (await ordersOfMember()).length;
    for (const packId of ['../coin-500', 'a'.repeat(65), '']) {
      const viaApi = await apiSaid(
        '/me/purchases',
        { packId, method: 'sandbox', channel: 'web' },
        { 'Idempotency-Key': randomUUID() },
      );
      expect(viaApi).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      const viaPage = answered(await confirm({ ...(await confirmFields()), pack: packId }));
      expect([packId, viaPage]).toEqual([packId, { status: 400, message: viaApi.message }]);
    }
    expect(await ordersOfMember()).toHaveLength(before);
  });

  it('refuse an altered or stale screen (order key, price, coins) with one message, and open no order', async () => {
    const before = (await ordersOfMember()).length;
    const good = await confirmFields();
    const forged: Record<string, string>[] = [
      { ...good, orderKey: 'not-a-key' },
      { ...good, orderKey: '' },
      { ...good, price: '' },
      { ...good, price: '0' },
      { ...good, price: '1e3' },
      { ...good, price: '500.5' },
      { ...good, coins: 'abc' },
      { ...good, price: '1000000000' },
      { ...good, coins: '-5' },
      { ...good, coins: '１０' },
    ];
    for (const fields of forged) {
      expect([fields, answered(await confirm(fields))]).toEqual([
        fields,
        { status: 400, message: CHECKOUT_FORM_INVALID_MESSAGE },
      ]);
    }
    expect(await ordersOfMember()).toHaveLength(before);
  });

  it('opens the checkout for the fields the screen showed', async () => {
    await declareAge(services.db, member.id, false);
    const before = (await ordersOfMember()).length;
    const answer = (await confirm(await confirmFields())) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toContain('/sandbox/');
    expect(await ordersOfMember()).toHaveLength(before + 1);
  });
});
