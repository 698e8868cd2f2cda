// The public draw log of a beacon pack (decision 081, oripa-beacon-log/1): no sign-in, paged by sequence number
// so a tracker resumes where it stopped and a page never changes under it, cacheable for a second. The shop's
// receipt signer (BEACON_RECEIPT_KEY) signs each receipt; the draw module never holds the key.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime } from './http';
import { beaconDrawLog, DRAW_LOG_MAX_PAGE } from '#modules/draw';
import { gachaIdSchema } from '#modules/gacha';
import { BEACON_LOG_FORMAT, BEACON_LOG_PENDING_LIMIT } from '#modules/fairness';
import { isRefusal } from '#modules/kernel';

const hex = (bytes: number, description: string) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`))
    .meta({ description });
const count = (description: string) => z.int().min(0).meta({ description });

const tierSchema = z.object({
  id: z.string(),
  label: z.string(),
  cardName: z.string(),
  quantity: z.int(),
  conversionValue: z.int(),
  isLastOne: z.boolean(),
  kiribanAt: z.array(z.int()).optional().meta({ description: 'キリ番賞のみ: 販売順で何口目か' }),
});

export const beaconLogPackSchema = apiSchema(
  'BeaconLogPack',
  z
    .object({
      id: z.string(),
      title: z.string(),
      pricePerDraw: z.int().min(0),
      totalLots: z.int().min(0),
      status: z.string(),
      commitment: hex(32, 'oripa-commitment-b1 の SHA-256'),
      committedAt: isoDateTime(),
      tiers: z.array(tierSchema),
      beacon: z.object({
        chainHash: z.string(),
        scheme: z.string(),
        publicKey: z.string(),
        genesisTime: z.int(),
        period: z.int(),
      }),
      receiptKey: hex(32, '受付票に署名する Ed25519 公開鍵'),
      certificates: z.array(
        z.object({ tierId: z.string(), company: z.string(), number: z.string(), photoSha256: z.string() }),
      ),
      closeMarginMs: z.int().min(0).meta({ description: 'ラウンドの締切 = ラウンドの時刻 − この値（ミリ秒）' }),
    })
    .meta({ description: 'コミットメント（oripa-commitment-b1）を再計算するための公開条件と締切の余裕' }),
);

export const beaconLogHeadSchema = apiSchema(
  'BeaconLogHead',
  z
    .object({
      round: z.int().min(1),
      head: hex(32, 'oripa-chain-v1 のヘッド'),
      prevHead: z.string().meta({ description: '前のヘッド（最初のヘッドは空文字）' }),
      receipts: z.int().min(1),
      publishedAt: isoDateTime(),
      settleRound: z.int().min(1).meta({ description: 'このヘッドを精算するラウンド' }),
      settled: z.boolean(),
      beacon: z
        .object({ round: z.int(), signature: z.string(), randomness: z.string() })
        .nullable()
        .meta({ description: '精算に使った drand のビーコン（精算前は null）' }),
    })
    .meta({ description: '締め切られたラウンドのヘッド' }),
);

export const beaconLogEntrySchema = apiSchema(
  'BeaconLogEntry',
  z
    .object({
      seq: z.int().min(1).nullable().meta({ description: 'ログの通し番号（ヘッドに入る前は null）' }),
      receipt: z.object({
        gachaId: z.string(),
        commitment: z.string(),
        drawId: z.string(),
        member: z.string().meta({ description: 'このオリパでの会員の仮名（16桁の16進数）' }),
        slots: z.array(z.int()),
        acceptedAt: z.string(),
        round: z.int(),
        afterHead: z.string(),
        afterRound: z.int(),
      }),
      signature: hex(64, '受付票（oripa-receipt-v1）の Ed25519 署名'),
      hash: hex(32, '受付票の SHA-256'),
      settled: z.boolean(),
      tiers: z.array(z.string()).nullable().meta({ description: '精算後: 各口の賞（口の番号の昇順）' }),
      saleNumbers: z.array(z.int()).nullable().meta({ description: '精算後: 各口の販売順（精算順）' }),
      kiriban: z.array(z.int()),
      lastOne: z.boolean(),
    })
    .meta({ description: '受付票と、精算後はその結果' }),
);

export const beaconLogRemainingSchema = apiSchema(
  'BeaconLogRemaining',
  z
    .object({
      settledReceipts: count('精算済みの受付票（通し番号 1〜この数）'),
      settledLots: count('精算済みの口'),
      lots: count('まだ精算されていない口（総口数 − 精算済み）'),
      unclaimedSlots: count('まだ誰も受け付けていない口'),
      pendingReceipts: count('ヘッドに入る前の受付票'),
      pendingLots: count('ヘッドに入る前の受付票の口'),
      tiers: z.array(
        z.object({
          tierId: z.string(),
          quantity: z.int(),
          won: z.int(),
          remaining: z.int(),
          conversionValue: z.int(),
        }),
      ),
      value: count('残りの口の交換価値の合計（コイン）'),
      cost: count('残りの口 × 1回の価格（コイン）'),
      returnRatePercent: z
        .number()
        .nullable()
        .meta({ description: '残りの還元率 ＝ ⌊value × 1000 ÷ cost⌋ ÷ 10（%、残りがなければ null）' }),
    })
    .meta({ description: '残りの口と、残りの還元率（ラストワン賞・キリ番賞は含まない）' }),
);

export const beaconLogPageSchema = apiSchema(
  'BeaconLogPage',
  z.object({
    format: z.literal(BEACON_LOG_FORMAT),
    generatedAt: isoDateTime(),
    pack: beaconLogPackSchema,
    heads: z.array(beaconLogHeadSchema).meta({ description: 'このページの受付票を含むヘッド（ラウンド順）' }),
    items: z.array(beaconLogEntrySchema).meta({ description: '通し番号 after + 1 からの受付票' }),
    pending: z
      .array(beaconLogEntrySchema)
      .meta({ description: `最後のページのみ: ヘッドに入る前の受付票（最大 ${BEACON_LOG_PENDING_LIMIT} 件）` }),
    remaining: beaconLogRemainingSchema,
    nextAfter: z.int().min(0).nullable().meta({ description: '次のページの after（最後のページでは null）' }),
  }),
);

const getDrawLog = defineOperation({
  operationId: 'getGachaDrawLog',
  method: 'get',
  path: '/gachas/{gachaId}/draw-log',
  summary: 'ビーコン抽選の公開抽選ログ',
  description:
    'ビーコン抽選のオリパの受付票（仮名・口・受付時刻・ラウンド・署名）、ヘッド、ビーコン、精算後の結果、残りの口と残りの還元率。' +
    '通し番号 after より後を limit 件ずつ返します（最後のページは nextAfter が null。新しい抽選は後ろに増えるだけで、番号は変わりません）。' +
    `形式は ${BEACON_LOG_FORMAT}（docs/formats/reveal-formats.md 第 B 部）。全ページを npm run verify-pack で検証できます。`,
  tags: ['fairness'],
  auth: 'none',
  // The member's result page fetches the head at the round's close, a second before the beacon: never older.
  cacheControl: 'public, max-age=1',
  params: z.object({ gachaId: gachaIdSchema.meta({ description: 'ガチャID' }) }),
  query: z.object({
    after: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .meta({ description: 'この通し番号より後の受付票から（省略すると最初から）。' }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(DRAW_LOG_MAX_PAGE)
      .default(20)
      .meta({ description: `1ページの件数（1〜${DRAW_LOG_MAX_PAGE}、既定 20）。` }),
  }),
  responses: {
    200: { description: '公開抽選ログの1ページ', schema: beaconLogPageSchema },
    400: { description: '条件が正しくありません。', codes: ['VALIDATION_FAILED'] },
    404: {
      description: 'ガチャがない（非公開を含む）か、ビーコン抽選のガチャではありません。',
      codes: ['GACHA_NOT_FOUND', 'DRAW_LOG_NOT_FOUND'],
    },
  },
  handler: async ({ services, params, query }) => {
    const beacon = services.beacon;
    const page = await beaconDrawLog(services.db, params.gachaId, {
      after: query.after,
      limit: query.limit,
      // By the key the pack committed to (BEACON_RECEIPT_KEY, or a retired one after a rotation). publishPack refuses
      // a beacon pack without a key, so a missing signer is a deployment error: the key was dropped too early.
      sign: (receipt, committedKey) => {
        const signature = beacon?.signFor(receipt, committedKey);
        if (!signature) throw new Error('getGachaDrawLog: no receipt key for this pack (BEACON_RECEIPT_KEYS_RETIRED)');
        return signature;
      },
    });
    if (isRefusal(page)) return page;
    return { status: 200, body: page };
  },
});

export const drawLogOperations = [getDrawLog];
