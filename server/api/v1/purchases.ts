// The coin shop over the API: packs and methods, the member's standing, the age declaration,
// starting a checkout (the app then opens the provider's page), purchase status and history,
// and the one-time token that signs the native app's web view in.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { ApiError, refusalError, decodeCursor, encodeCursor, isoDateTime, pageOf, pageQuery } from './http';
import type { ShopServices } from '#server/services';
import {
  declareAge,
  getOrder,
  getPurchaseStanding,
  listCoinPacks,
  listOrders,
  METHOD_ORDER,
  PAYMENT_METHOD_INFO,
  PurchaseRefused,
  startCheckout,
  syncOrder,
  DEFAULT_PAYMENT_RULES,
  orderStatuses,
  PAYMENT_METHODS,
  purchaseRequestSchema,
} from '#modules/payments';
import { takeRateLimit, CLIENT_IP_HEADER } from '#modules/identity';

const paymentsOf = (services: ShopServices) => {
  if (!services.payments) throw new ApiError(503, 'SHOP_UNAVAILABLE', 'コインの販売は準備中です。');
  return services.payments;
};

const refusal = (error: unknown): never => {
  if (error instanceof PurchaseRefused) throw refusalError(error.refusal);
  throw error;
};

const coinPackSchema = apiSchema(
  'CoinPack',
  z.object({
    id: z.string(),
    name: z.string(),
    priceJpy: z.int().min(1).meta({ description: '税込価格（円）' }),
    paidCoins: z.int().min(1).meta({ description: '有償コイン' }),
    bonusCoins: z.int().min(0).meta({ description: 'パックのボーナス（無償コイン）' }),
    rankBonusCoins: z.int().min(0).meta({ description: 'ランク特典のボーナス（無償コイン）' }),
    totalCoins: z.int().min(1),
    firstPurchaseOnly: z.boolean(),
    badge: z.string().nullable(),
    available: z.boolean().meta({ description: 'false: 初回限定パックで、すでに購入したことがある など' }),
    unavailableReason: z
      .string()
      .nullable()
      .meta({ description: '購入できない理由（例：「初回購入のみ対象です」）。購入できるときは null' }),
  }),
);

const standingSchema = apiSchema(
  'PurchaseStanding',
  z.object({
    declared: z.boolean().meta({ description: '年齢（18歳以上か）を申告済み' }),
    declaredMinor: z.boolean(),
    hold: z.string().nullable().meta({ description: '購入停止の理由（チャージバックなど）' }),
    rank: z.object({ rank: z.int(), name: z.string(), bonusPercent: z.int() }),
    capJpy: z.int(),
    usedJpy: z.int(),
    remainingJpy: z.int(),
    hasPurchased: z.boolean(),
    selfLimitJpy: z
      .int()
      .nullable()
      .meta({ description: '会員ご本人が設定した1か月の購入上限（円、usedJpy と同じ数え方）。なければ null' }),
    excludedUntil: isoDateTime().nullable().meta({ description: '自己除外の終わる時刻。自己除外中でなければ null' }),
  }),
);

const methodSchema = apiSchema(
  'PaymentMethod',
  z.object({
    method: z.enum(PAYMENT_METHODS),
    label: z.string(),
    note: z.string(),
  }),
);

export const purchaseSchema = apiSchema(
  'Purchase',
  z.object({
    id: z.string(),
    receiptNo: z.string(),
    status: z.enum(orderStatuses),
    method: z.enum(PAYMENT_METHODS),
    methodLabel: z.string(),
    channel: z.enum(['web', 'app']),
    packName: z.string(),
    amountJpy: z.int(),
    paidCoins: z.int(),
    bonusCoins: z.int(),
    rankBonusCoins: z.int(),
    createdAt: isoDateTime(),
    creditedAt: isoDateTime().nullable(),
    failureReason: z.string().nullable(),
    refundedJpy: z.int(),
    analyticsLabel: z.string().meta({ description: "GA4 purchase イベントのラベル（'paid coin' + ボーナス）" }),
    drawContext: z
      .object({ gachaId: z.string(), count: z.int() })
      .nullable()
      .meta({ description: 'コイン不足から購入したときのガチャと回数（Web のコインショップ経由のみ）' }),
  }),
);

const getCoinShop = defineOperation({
  operationId: 'getCoinShop',
  method: 'get',
  path: '/coin-shop',
  summary: 'コインパックとお支払い方法',
  description: 'ログイン中は会員のランクボーナス・初回限定の可否・今月の購入上限を含みます。',
  tags: ['purchases'],
  auth: 'optional',
  responses: {
    200: {
      description: 'コインショップ',
      schema: apiSchema(
        'CoinShop',
        z.object({
          packs: z.array(coinPackSchema),
          methods: z.array(methodSchema),
          standing: standingSchema.nullable(),
        }),
      ),
    },
    503: { description: '販売準備中', codes: ['SHOP_UNAVAILABLE'] },
  },
  handler: async ({ services, member }) => {
    const payments = paymentsOf(services);
    const standing = member ? await getPurchaseStanding(services.db, member.id, payments.rules) : null;
    const packs = await listCoinPacks(
      services.db,
      standing ?? { rank: { rank: 0, name: 'レギュラー', bonusPercent: 0 }, hasPurchased: false },
    );
    const methods = METHOD_ORDER.filter((m) => payments.gateway.providers[m]).map((m) => {
      const { method, label, note } = PAYMENT_METHOD_INFO[m];
      return { method, label, note };
    });
    return { status: 200, body: { packs, methods, standing } };
  },
});

const declareAgeOperation = defineOperation({
  operationId: 'declareAge',
  method: 'put',
  path: '/me/age-declaration',
  summary: '年齢の申告（初回購入の前に必要）',
  description:
    '一度申告すると会員は変更できません（変更はお問い合わせください）。18歳未満の方は月の購入上限が低くなります。',
  tags: ['purchases'],
  auth: 'member',
  body: z.object({ minor: z.boolean().meta({ description: 'true: 18歳未満' }) }),
  responses: {
    200: { description: '申告内容', schema: z.object({ declaredMinor: z.boolean() }) },
    400: { description: '入力が正しくありません。', codes: ['VALIDATION_FAILED'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, body }) => ({
    status: 200,
    body: await declareAge(services.db, member.id, body.minor),
  }),
});

/** One order per (member, Idempotency-Key): the key becomes the order's id, so a retry returns the same checkout. */
const orderKeyOf = (memberId: string, key: string) => {
  const hex = createHash('sha256').update(`${memberId}\u0000${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const createPurchase = defineOperation({
  operationId: 'createPurchase',
  method: 'post',
  path: '/me/purchases',
  summary: 'コイン購入を開始（決済ページのURLを返す）',
  description:
    '確認画面で表示した内容で注文を作り、決済事業者のページのURLを返します。コインは決済事業者の確認後に付与されます（getPurchase で確認）。Idempotency-Key が必須で、同じキーと同じ内容の再送は同じ注文を返し、同じキーで内容（パック・支払方法・チャネル）が違えば 409 IDEMPOTENCY_KEY_REUSED です。',
  tags: ['purchases'],
  auth: 'member',
  idempotencyKey: 'required',
  body: purchaseRequestSchema,
  responses: {
    201: {
      description: '注文を作成しました。redirectUrl を開いてください。',
      schema: z.object({ purchase: purchaseSchema, redirectUrl: z.string() }),
    },
    400: { description: '入力が正しくありません。', codes: ['VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REQUIRED'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    403: { description: '購入停止中、または自己除外期間中', codes: ['PURCHASE_HOLD', 'SELF_EXCLUDED'] },
    404: { description: 'パックまたは支払方法がありません。', codes: ['PACK_UNAVAILABLE', 'METHOD_UNAVAILABLE'] },
    409: {
      description:
        '年齢の申告が必要、初回限定、販売期間外、キーの再利用（終了した注文、または同じキーで別のパック・支払方法・チャネル）、手続き中',
      codes: [
        'AGE_DECLARATION_REQUIRED',
        'FIRST_PURCHASE_ONLY',
        'PACK_OUTSIDE_WINDOW',
        'ORDER_KEY_CONFLICT',
        'IDEMPOTENCY_KEY_REUSED',
        'CHECKOUT_IN_PROGRESS',
      ],
    },
    422: {
      description: '今月の購入上限（ショップの上限、または会員ご本人が設定した上限）を超えます。',
      codes: ['MONTHLY_CAP_EXCEEDED', 'MINOR_CAP_EXCEEDED', 'PURCHASE_LIMIT_REACHED'],
    },
    503: { description: '決済事業者に接続できません。', codes: ['PROVIDER_UNAVAILABLE', 'SHOP_UNAVAILABLE'] },
  },
  handler: async ({ services, member, body, idempotencyKey }) => {
    const payments = paymentsOf(services);
    const started = await startCheckout(
      services.db,
      payments.gateway,
      {
        memberId: member.id,
        email: member.email,
        packId: body.packId,
        method: body.method,
        channel: body.channel,
        orderKey: orderKeyOf(member.id, idempotencyKey!),
        origin: services.config.PUBLIC_ORIGIN,
      },
      payments.rules,
    ).catch(refusal);
    const purchase = (await getOrder(services.db, member.id, started.orderId))!;
    return { status: 201, body: { purchase, redirectUrl: started.redirectUrl } };
  },
});

const getPurchase = defineOperation({
  operationId: 'getPurchase',
  method: 'get',
  path: '/purchases/{purchaseId}',
  summary: '購入の状態（決済の確認を含む）',
  description:
    '決済待ちの注文は、その場で決済事業者に状態を問い合わせてから答えます。戻りページはこれを2秒ごとに呼びます。',
  tags: ['purchases'],
  auth: 'member',
  params: z.object({ purchaseId: z.uuid() }),
  responses: {
    200: { description: '購入', schema: z.object({ purchase: purchaseSchema }) },
    400: { description: '入力が正しくありません。', codes: ['VALIDATION_FAILED'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    404: { description: '見つかりません（他の会員の注文を含む）。', codes: ['PURCHASE_NOT_FOUND'] },
  },
  handler: async ({ services, member, params }) => {
    let purchase = await getOrder(services.db, member.id, params.purchaseId);
    if (!purchase) throw new ApiError(404, 'PURCHASE_NOT_FOUND', 'ご注文が見つかりません。');
    if (purchase.status === 'pending' && services.payments) {
      try {
        purchase =
          (await syncOrder(services.db, services.payments.gateway, purchase.id, { rules: services.payments.rules }))
            ?.order ?? purchase;
      } catch (error) {
        services.logger.warn({ err: error, orderId: purchase.id }, 'payment status check failed; answering pending');
      }
    }
    return { status: 200, body: { purchase } };
  },
});

const purchasesCursor = z.object({ before: z.string().datetime() });

const listPurchases = defineOperation({
  operationId: 'listPurchases',
  method: 'get',
  path: '/me/purchases',
  summary: '購入履歴（新しい順）',
  tags: ['purchases'],
  auth: 'member',
  query: pageQuery,
  responses: {
    200: { description: '履歴', schema: apiSchema('PurchaseList', pageOf(purchaseSchema)) },
    400: { description: 'cursor が正しくありません。', codes: ['CURSOR_INVALID'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, query }) => {
    const before = query.cursor ? decodeCursor(query.cursor, purchasesCursor).before : null;
    const page = await listOrders(services.db, member.id, { limit: query.limit, before });
    return {
      status: 200,
      body: { items: page.items, nextCursor: page.nextCursor ? encodeCursor({ before: page.nextCursor }) : null },
    };
  },
});

const createAppHandoff = defineOperation({
  operationId: 'createAppHandoff',
  method: 'post',
  path: '/me/app-handoffs',
  summary: 'アプリからWebを開くためのワンタイムトークン',
  description:
    'ネイティブアプリが /app/checkout/{method}?ott={token} や /app/return を開くときに使います。3分間、1回だけ有効です。',
  tags: ['purchases'],
  auth: 'member',
  // A sign-in hand-off to the web view writes nothing of the shop's; the pages it opens refuse what they must.
  duringMaintenance: 'open',
  responses: {
    201: {
      description: 'トークン',
      schema: apiSchema('AppHandoff', z.object({ token: z.string(), expiresInSeconds: z.int() })),
    },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    429: {
      description: '回数制限（会員ごと・接続元ごとに APP_HANDOFF_PER_MINUTE 回/分）',
      codes: ['RATE_LIMITED'],
      headers: { 'Retry-After': '再試行までの秒数' },
    },
  },
  handler: async ({ services, c, member }) => {
    // Each token writes a row: counted before one is made, per member and per client address.
    const limited = await appHandoffLimit(services, member.id, c.req.header(CLIENT_IP_HEADER) ?? 'unknown');
    if (limited)
      throw new ApiError(
        429,
        'RATE_LIMITED',
        'アプリからの画面の呼び出しが多すぎます。しばらく時間をおいてからお試しください。',
        undefined,
        { 'Retry-After': String(limited.retryAfterSeconds) },
      );
    const { token } = await services.auth.api.generateOneTimeToken({ headers: c.req.raw.headers });
    return { status: 201, body: { token, expiresInSeconds: 180 } };
  },
});

/** The refusal when this member or this address has had its tokens for the minute, else null. */
async function appHandoffLimit(
  services: ShopServices,
  memberId: string,
  address: string,
): Promise<{ retryAfterSeconds: number } | null> {
  const max = services.config.APP_HANDOFF_PER_MINUTE;
  for (const key of [`app-handoff:member:${memberId}`, `app-handoff:address:${address}`]) {
    const answer = await takeRateLimit(services.db, { key, windowSeconds: 60, max });
    if (!answer.allowed) return answer;
  }
  return null;
}

export const purchaseOperations = [
  getCoinShop,
  declareAgeOperation,
  createPurchase,
  getPurchase,
  listPurchases,
  createAppHandoff,
];
export { DEFAULT_PAYMENT_RULES };
