// The signed-in member's wallet: balances and the coin history.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { decodeCursor, encodeCursor, isoDateTime, pageOf, pageQuery } from './http';
import { getBalance, listLedgerEntries } from '#modules/wallet';

export const walletSchema = apiSchema(
  'Wallet',
  z.object({
    paid: z.int().min(0).meta({ description: '有償コイン（購入したコイン）' }),
    free: z.int().min(0).meta({ description: '無償コイン（特典・交換などで付与されたコイン）' }),
    total: z.int().min(0),
    expiringSoon: z.object({
      amount: z.int().min(0).meta({ description: '30日以内に期限切れになるコイン' }),
      firstExpiresAt: isoDateTime().nullable(),
    }),
  }),
);

export const walletEntrySchema = apiSchema(
  'WalletEntry',
  z.object({
    id: z.int(),
    kind: z.enum(['paid', 'free']),
    amount: z.int().meta({ description: '増えたら正、減ったら負' }),
    reason: z.string().meta({ description: 'purchase, draw, prize_conversion, expiry など' }),
    reasonLabel: z.string().meta({ description: '表示用の理由（日本語）' }),
    memo: z.string().nullable(),
    paidAfter: z.int(),
    freeAfter: z.int(),
    createdAt: isoDateTime(),
  }),
);

const getWallet = defineOperation({
  operationId: 'getWallet',
  method: 'get',
  path: '/me/wallet',
  summary: 'コイン残高',
  tags: ['wallet'],
  auth: 'member',
  responses: {
    200: { description: '残高', schema: walletSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member }) => ({ status: 200, body: await getBalance(services.db, member.id) }),
});

const entriesCursor = z.object({ before: z.int().min(1) });

const listWalletEntries = defineOperation({
  operationId: 'listWalletEntries',
  method: 'get',
  path: '/me/wallet/entries',
  summary: 'コイン履歴（新しい順）',
  tags: ['wallet'],
  auth: 'member',
  query: pageQuery,
  responses: {
    200: { description: '履歴', schema: apiSchema('WalletEntryList', pageOf(walletEntrySchema)) },
    400: { description: 'cursor が正しくありません。', codes: ['CURSOR_INVALID'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, query }) => {
    const before = query.cursor ? decodeCursor(query.cursor, entriesCursor).before : undefined;
    const page = await listLedgerEntries(services.db, member.id, { limit: query.limit, before });
    return {
      status: 200,
      body: {
        items: page.items.map(({ ref: _ref, ...entry }) => entry),
        nextCursor: page.nextBefore ? encodeCursor({ before: page.nextBefore }) : null,
      },
    };
  },
});

export const walletOperations = [getWallet, listWalletEntries];
