// Addresses over the API: the public postal look-up (郵便番号 → 都道府県・市区町村・町域) and the signed-in
// member's address book (list, add, change, delete). Another member's address is 404, never 403.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime, toIso } from './http';
import {
  addressInputSchema,
  createAddress,
  deleteAddress,
  listAddresses,
  lookupPostalCode,
  MAX_ADDRESSES_PER_MEMBER,
  postalCodeSchema,
  updateAddress,
  type MemberAddress,
} from '#modules/shipping';

const postalPlaceSchema = apiSchema(
  'PostalPlace',
  z.object({
    postalCode: z.string().meta({ description: '郵便番号（7桁の数字）', examples: ['1000001'] }),
    prefecture: z.string().meta({ examples: ['東京都'] }),
    city: z.string().meta({ description: '市区町村（郡・政令市の区を含む）', examples: ['千代田区'] }),
    town: z.string().meta({ description: '町域。市区町村全体の番号では空文字', examples: ['千代田'] }),
  }),
);

const postalLookupSchema = apiSchema(
  'PostalCodeLookup',
  z.object({
    postalCode: z.string().meta({ description: '読み取った郵便番号（7桁の数字）' }),
    places: z.array(postalPlaceSchema).meta({ description: '1つの番号が複数の町域にあたることがあります' }),
  }),
);

const lookupPostalCodeOperation = defineOperation({
  operationId: 'lookupPostalCode',
  method: 'get',
  path: '/postal-codes/{postalCode}',
  summary: '郵便番号から住所を調べる',
  description:
    '日本郵便のデータ（アプリ内に同梱、外部への通信なし）から都道府県・市区町村・町域を返します。全角数字、ハイフンの有無、〒を受け付けます。例: /postal-codes/1000001 → 東京都 千代田区 千代田。',
  tags: ['addresses'],
  auth: 'none',
  // Japan Post's data changes only with a new release of the shop.
  cacheControl: 'public, max-age=86400',
  params: z.object({ postalCode: postalCodeSchema }),
  responses: {
    200: { description: '住所の候補', schema: postalLookupSchema },
    400: { description: '郵便番号が7桁の数字ではありません。', codes: ['VALIDATION_FAILED'] },
    404: { description: 'この郵便番号の住所はありません。', codes: ['POSTAL_CODE_NOT_FOUND'] },
  },
  handler: ({ params }) => {
    const found = lookupPostalCode(params.postalCode);
    if (!found.ok) return found;
    return { status: 200, body: { postalCode: found.postalCode, places: found.places } };
  },
});

const addressSchema = apiSchema(
  'Address',
  z.object({
    id: z.string(),
    name: z.string().meta({ description: '氏名' }),
    nameKana: z.string().meta({ description: 'フリガナ（全角カタカナ）' }),
    postalCode: z.string().meta({ description: '郵便番号（7桁の数字）', examples: ['1000001'] }),
    prefecture: z.string().meta({ description: '都道府県' }),
    city: z.string().meta({ description: '市区町村' }),
    town: z.string().meta({ description: '町域・番地' }),
    building: z.string().nullable().meta({ description: '建物名・部屋番号' }),
    phone: z.string().meta({ description: '電話番号（例: 090-1234-5678）' }),
    isDefault: z.boolean().meta({ description: 'いつもの配送先' }),
    createdAt: isoDateTime(),
    updatedAt: isoDateTime(),
  }),
);

const addressBodySchema = apiSchema(
  'AddressInput',
  addressInputSchema.meta({
    description:
      '全角・半角、ハイフンの有無は問いません（保存時に統一）。フリガナはひらがな・半角カナも可。郵便番号は都道府県・市区町村と照合します。isDefault: true で「いつもの配送先」にします。',
  }),
);

const asApiAddress = (address: MemberAddress) => ({
  ...address,
  createdAt: toIso(address.createdAt),
  updatedAt: toIso(address.updatedAt),
});

const addressId = z.object({ addressId: z.string().max(100) });
const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;
const notFound = { description: '住所がありません（他の会員の住所を含む）。', codes: ['ADDRESS_NOT_FOUND'] } as const;
const badInput = {
  description: '入力内容に誤りがあります（項目ごとの日本語メッセージ）。',
  codes: ['VALIDATION_FAILED'],
} as const;

const listAddressesOperation = defineOperation({
  operationId: 'listAddresses',
  method: 'get',
  path: '/me/addresses',
  summary: '住所録（いつもの配送先が先頭）',
  tags: ['addresses'],
  auth: 'member',
  responses: {
    200: {
      description: '登録した住所（最大5件のため1ページ）',
      schema: apiSchema(
        'AddressList',
        z.object({
          items: z.array(addressSchema),
          nextCursor: z.null().meta({ description: '常に null（最大件数が少ないため1ページで返します）' }),
          maxItems: z.int().meta({ description: '登録できる件数の上限', examples: [MAX_ADDRESSES_PER_MEMBER] }),
        }),
      ),
    },
    401: unauthenticated,
  },
  handler: async ({ services, member }) => {
    const addresses = await listAddresses(services.db, services.config.addressKeyring, member.id);
    return {
      status: 200,
      body: { items: addresses.map(asApiAddress), nextCursor: null, maxItems: MAX_ADDRESSES_PER_MEMBER },
    };
  },
});

const createAddressOperation = defineOperation({
  operationId: 'createAddress',
  method: 'post',
  path: '/me/addresses',
  summary: '住所を登録',
  description: '最初の住所は「いつもの配送先」になります。登録できるのは5件までです。',
  tags: ['addresses'],
  auth: 'member',
  body: addressBodySchema,
  responses: {
    201: { description: '登録しました。', schema: addressSchema },
    400: badInput,
    401: unauthenticated,
    422: { description: '登録できる件数（5件）に達しています。', codes: ['ADDRESS_LIMIT_REACHED'] },
  },
  handler: async ({ services, member, body }) => {
    const created = await createAddress(services.db, services.config.addressKeyring, member.id, body);
    if (!created.ok) return created;
    return { status: 201, body: asApiAddress(created.address) };
  },
});

const updateAddressOperation = defineOperation({
  operationId: 'updateAddress',
  method: 'put',
  path: '/me/addresses/{addressId}',
  summary: '住所を変更',
  description:
    'すべての項目を送ります（送らなかった建物名は消えます）。isDefault: true で「いつもの配送先」にします（false では外れません。別の住所を選んでください）。',
  tags: ['addresses'],
  auth: 'member',
  params: addressId,
  body: addressBodySchema,
  responses: {
    200: { description: '変更しました。', schema: addressSchema },
    400: badInput,
    401: unauthenticated,
    404: notFound,
  },
  handler: async ({ services, member, params, body }) => {
    const updated = await updateAddress(services.db, services.config.addressKeyring, member.id, params.addressId, body);
    if (!updated.ok) return updated;
    return { status: 200, body: asApiAddress(updated.address) };
  },
});

const deleteAddressOperation = defineOperation({
  operationId: 'deleteAddress',
  method: 'delete',
  path: '/me/addresses/{addressId}',
  summary: '住所を削除',
  description:
    '「いつもの配送先」を削除すると、残りのうち最も古い住所がいつもの配送先になります。申し込み済みの発送には影響しません。',
  tags: ['addresses'],
  auth: 'member',
  params: addressId,
  responses: { 204: { description: '削除しました。' }, 401: unauthenticated, 404: notFound },
  handler: async ({ services, member, params }) => {
    const deleted = await deleteAddress(services.db, member.id, params.addressId);
    if (!deleted.ok) return deleted;
    return { status: 204 };
  },
});

export const addressOperations = [
  lookupPostalCodeOperation,
  listAddressesOperation,
  createAddressOperation,
  updateAddressOperation,
  deleteAddressOperation,
];
