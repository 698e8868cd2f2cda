// Shipping requests over the API (issue 12): the confirmation's quote, a new request (Idempotency-Key),
// the member's list, one request with its timeline, and the member's cancel. Another member's request is
// 404, never 403. The module functions are the pages' too (modules/shipping/requests.ts).
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { decodeCursor, encodeCursor, isoDateTime, pageOf, pageQuery, validationFailed } from './http';
import {
  CARRIER_CODES,
  SHIPPING_STATUS_LABELS,
  cancelShippingRequest,
  createShippingRequest,
  getShippingRequest,
  listShippingRequests,
  quoteShippingRequest,
  shippingQuoteInputSchema,
  shippingRequestInputSchema,
  shippingRequestPositionSchema,
  shippingActors,
  shippingEventKinds,
  shippingStatuses,
  type ShippingItemView,
  type ShippingRequestSummary,
  type ShippingRequestView,
  type ShippingStatus,
} from '#modules/shipping';
import { refuse } from '#modules/kernel';
import { shippingRulesOf } from '../../shipping';

const statusSchema = z.enum(shippingStatuses).meta({
  description: Object.entries(SHIPPING_STATUS_LABELS)
    .map(([status, label]) => `${status}: ${label}`)
    .join('、'),
});

const itemSchema = apiSchema(
  'ShippingItem',
  z.object({
    prizeId: z.string(),
    cardName: z.string(),
    imagePath: z.string(),
    tierLabel: z.string(),
    tierRank: z.int(),
    effect: z.enum(['lastone', 'rainbow', 'gold', 'silver', 'normal']),
    isLastOne: z.boolean(),
    rarity: z.string().nullable(),
    cardGrade: z.string().nullable(),
    conversionValue: z.int().min(0),
    gachaId: z.string(),
    gachaTitle: z.string(),
    substitute: z
      .object({
        cardName: z.string(),
        cardSet: z.string().nullable(),
        cardNumber: z.string().nullable(),
        cardGrade: z.string().nullable(),
      })
      .nullable()
      .meta({ description: '元のカードをご用意できなかったため代わりにお送りする、同等以上の価値のカード' }),
  }),
);

const summaryShape = {
  id: z.string(),
  status: statusSchema,
  requestedAt: isoDateTime(),
  promisedDate: z.iso.date().meta({ description: '発送予定日（日本時間の日付）。この日の24時までに発送します' }),
  itemCount: z.int().min(0),
  previewItems: z.array(z.object({ prizeId: z.string(), cardName: z.string(), imagePath: z.string() })),
  feeCoins: z.int().min(0).meta({ description: '支払った発送手数料（コイン）' }),
  carrier: z.enum(CARRIER_CODES).nullable().meta({ description: '配送業者（発送後）' }),
  carrierName: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable().meta({ description: '配送業者の追跡ページ' }),
  shippedAt: isoDateTime().nullable(),
  deliveredAt: isoDateTime().nullable(),
  returnedAt: isoDateTime().nullable(),
  canceledAt: isoDateTime().nullable(),
  late: z.boolean().meta({ description: '発送予定日までに発送されなかった' }),
  compensationCoins: z.int().min(0).meta({ description: 'お詫びとして付与した無償コイン' }),
  compensatedAt: isoDateTime().nullable(),
  cancelable: z.boolean().meta({ description: '会員がキャンセルできる（受付済みの間だけ）' }),
};

const summarySchema = apiSchema('ShippingRequestSummary', z.object(summaryShape));

const shippingRequestSchema = apiSchema(
  'ShippingRequest',
  z.object({
    ...summaryShape,
    items: z.array(itemSchema),
    events: z
      .array(
        z.object({
          kind: z.enum(shippingEventKinds),
          status: statusSchema,
          at: isoDateTime(),
          note: z.string().nullable().meta({ description: '会員向けの説明（追跡番号、お詫びなど）' }),
          actor: z.enum(shippingActors),
        }),
      )
      .meta({ description: '経過（古い順）' }),
    address: z
      .object({
        name: z.string(),
        nameKana: z.string(),
        postalCode: z.string(),
        prefecture: z.string(),
        city: z.string(),
        town: z.string(),
        building: z.string().nullable(),
        phone: z.string(),
      })
      .meta({ description: '申し込み時のお届け先（住所録を後で変えても変わりません）' }),
  }),
);

const quoteSchema = apiSchema(
  'ShippingQuote',
  z.object({
    items: z.array(itemSchema),
    feeCoins: z.int().min(0).meta({ description: '発送手数料（コイン）。依頼の feeCoins にこの値を送ってください' }),
    promisedDate: z.iso.date().meta({ description: 'いま申し込んだときの発送予定日' }),
    minPrizes: z.int().min(1),
    balance: z.int().min(0).meta({ description: 'コイン残高' }),
  }),
);

const asItem = (item: ShippingItemView) => item;
const asSummary = (request: ShippingRequestSummary) => ({ ...request });
const asRequest = (request: ShippingRequestView) => ({ ...request, items: request.items.map(asItem) });

const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;
const badInput = { description: '入力内容に誤りがあります。', codes: ['VALIDATION_FAILED'] } as const;
const requestRefusals = {
  403: { description: 'お支払いの確認が必要なため発送を依頼できません。', codes: ['SHIPPING_HOLD'] },
  404: {
    description: '獲得商品または住所がありません（他の会員のものを含む）。',
    codes: ['PRIZE_NOT_FOUND', 'ADDRESS_NOT_FOUND'],
  },
  409: {
    description: '交換・発送手続き済みのカード、発送手数料の変更、キーの再利用。',
    codes: ['PRIZE_ALREADY_DECIDED', 'SHIPPING_FEE_CHANGED', 'IDEMPOTENCY_KEY_REUSED'],
  },
  422: {
    description: '枚数が足りない、電話番号が未認証、コインが足りない。',
    codes: ['SHIPPING_TOO_FEW_PRIZES', 'SHIPPING_PHONE_UNVERIFIED', 'INSUFFICIENT_COINS'],
  },
} as const;
const requestId = z.object({ shippingRequestId: z.string().max(100) });
const notFound = {
  description: '発送依頼がありません（他の会員の依頼を含む）。',
  codes: ['SHIPPING_REQUEST_NOT_FOUND'],
} as const;

const quoteOperation = defineOperation({
  operationId: 'quoteShippingRequest',
  method: 'post',
  path: '/me/shipping-quotes',
  summary: '発送依頼の確認（カード・手数料・発送予定日）',
  description:
    '確認画面の内容を返します。依頼したときに断られる理由（未認証の電話番号、コイン不足など）があれば、その拒否を返します。何も変更しません。',
  tags: ['shipping'],
  auth: 'member',
  // A quote writes nothing: members may still see what a request would be.
  duringMaintenance: 'open',
  body: shippingQuoteInputSchema,
  responses: {
    200: { description: '確認内容', schema: quoteSchema },
    400: badInput,
    401: unauthenticated,
    ...requestRefusals,
  },
  handler: async ({ services, member, body }) => {
    const quoted = await quoteShippingRequest(services.db, shippingRulesOf(services.config), member.id, body);
    if (!quoted.ok) return quoted;
    return { status: 200, body: { ...quoted.quote, items: quoted.quote.items.map(asItem) } };
  },
});

const createOperation = defineOperation({
  operationId: 'createShippingRequest',
  method: 'post',
  path: '/me/shipping-requests',
  summary: '発送を依頼',
  description:
    '選んだ獲得商品（未選択または保管中）を、住所録の配送先へ発送するよう依頼します。カードは「発送手続き中」になり、コインへの交換や自動交換の対象から外れます。電話番号の認証が必要です。発送手数料があればコインから支払います。Idempotency-Key が必須で、同じキーと同じ内容の再送は同じ依頼を返し（Idempotent-Replayed: true）、同じキーで別の内容なら 409 です。断られた依頼は何も残さないため、同じキーで再送できます。',
  tags: ['shipping'],
  auth: 'member',
  idempotencyKey: 'required',
  body: shippingRequestInputSchema,
  responses: {
    201: {
      description: '依頼を受け付けました（再送のときは最初の依頼）。',
      schema: z.object({ shippingRequest: shippingRequestSchema }),
      headers: { 'Idempotent-Replayed': '再送に最初の依頼を返したとき true' },
    },
    400: { description: '入力が正しくありません。', codes: ['VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REQUIRED'] },
    401: unauthenticated,
    ...requestRefusals,
  },
  handler: async ({ services, member, body, idempotencyKey }) => {
    const made = await createShippingRequest(services.db, shippingRulesOf(services.config), {
      ...body,
      memberId: member.id,
      idempotencyKey: idempotencyKey!,
    });
    if (!made.ok) return made;
    return {
      status: 201,
      body: { shippingRequest: asRequest(made.request) },
      headers: made.replay ? { 'Idempotent-Replayed': 'true' } : undefined,
    };
  },
});

const listOperation = defineOperation({
  operationId: 'listShippingRequests',
  method: 'get',
  path: '/me/shipping-requests',
  summary: '発送依頼の一覧（新しい順）',
  description: 'status をカンマ区切りで指定すると、その状態の依頼だけを返します。',
  tags: ['shipping'],
  auth: 'member',
  query: pageQuery.extend({
    status: z
      .string()
      .max(100)
      .optional()
      .meta({ description: `${shippingStatuses.join(',')} のカンマ区切り` }),
  }),
  responses: {
    200: { description: '発送依頼', schema: apiSchema('ShippingRequestList', pageOf(summarySchema)) },
    400: { description: '条件が正しくありません。', codes: ['VALIDATION_FAILED', 'CURSOR_INVALID'] },
    401: unauthenticated,
  },
  handler: async ({ services, member, query }) => {
    const statuses = query.status
      ? query.status
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
    if (statuses && !statuses.every((s) => (shippingStatuses as readonly string[]).includes(s)))
      throw validationFailed({ 'query.status': `${shippingStatuses.join(', ')} から選んでください。` });
    const before = query.cursor ? decodeCursor(query.cursor, shippingRequestPositionSchema) : undefined;
    const page = await listShippingRequests(services.db, member.id, {
      status: statuses as ShippingStatus[] | undefined,
      limit: query.limit,
      before,
    });
    return {
      status: 200,
      body: { items: page.items.map(asSummary), nextCursor: page.next ? encodeCursor(page.next) : null },
    };
  },
});

const getOperation = defineOperation({
  operationId: 'getShippingRequest',
  method: 'get',
  path: '/me/shipping-requests/{shippingRequestId}',
  summary: '発送依頼（カード、経過、お届け先）',
  tags: ['shipping'],
  auth: 'member',
  params: requestId,
  responses: {
    200: { description: '発送依頼', schema: z.object({ shippingRequest: shippingRequestSchema }) },
    401: unauthenticated,
    404: notFound,
  },
  handler: async ({ services, member, params }) => {
    const found = await getShippingRequest(
      services.db,
      shippingRulesOf(services.config),
      member.id,
      params.shippingRequestId,
    );
    if (!found) return refuse('SHIPPING_REQUEST_NOT_FOUND');
    return { status: 200, body: { shippingRequest: asRequest(found) } };
  },
});

const cancelOperation = defineOperation({
  operationId: 'cancelShippingRequest',
  method: 'post',
  path: '/me/shipping-requests/{shippingRequestId}/cancellation',
  summary: '発送依頼をキャンセル',
  description:
    '受付済み（発送準備の前）の依頼だけキャンセルできます。カードは「保管中」として獲得商品に戻り、発送手数料はコインで返却します。キャンセル済みの依頼にもう一度送ると 409 です。',
  tags: ['shipping'],
  auth: 'member',
  params: requestId,
  responses: {
    200: {
      description: 'キャンセルしました。',
      schema: z.object({
        shippingRequest: shippingRequestSchema,
        refundCoins: z.int().min(0).meta({ description: '返却した発送手数料（コイン）' }),
      }),
    },
    401: unauthenticated,
    404: notFound,
    409: { description: '発送準備が始まっているか、終わった依頼です。', codes: ['SHIPPING_NOT_CANCELABLE'] },
  },
  handler: async ({ services, member, params }) => {
    const canceled = await cancelShippingRequest(
      services.db,
      shippingRulesOf(services.config),
      member.id,
      params.shippingRequestId,
    );
    if (!canceled.ok) return canceled;
    return {
      status: 200,
      body: { shippingRequest: asRequest(canceled.request), refundCoins: canceled.refundCoins },
    };
  },
});

export const shippingRequestOperations = [
  quoteOperation,
  createOperation,
  listOperation,
  getOperation,
  cancelOperation,
];
