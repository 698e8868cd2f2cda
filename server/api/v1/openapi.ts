// The OpenAPI 3.1 document of /api/v1, generated from the operations' zod schemas, and the
// human-readable reference page beside it (server-rendered HTML, no script).
//
// Its parts: openapi-schemas.ts (zod to JSON Schema, components), openapi-operation.ts (one operation's
// object) and openapi-reference.ts (the reference page).
import { apiSchema, type ApiOperation } from './registry';
import { errorResponseSchema } from './http';
import { operationObject, type OpenApiOperationObject } from './openapi-operation';
import { convertOperationSchemas, type JsonSchema } from './openapi-schemas';

export type { OpenApiOperationObject } from './openapi-operation';
export { describeType, renderReferencePage } from './openapi-reference';

export const OPENAPI_VERSION = '3.1.1';

apiSchema('ErrorResponse', errorResponseSchema);

/** Japanese descriptions of the tags; a module with a new tag adds it here. */
export const API_TAG_DESCRIPTIONS: Record<string, string> = {
  catalogue: 'ジャンルとガチャ（ログイン不要）',
  draws: 'ガチャを引く',
  'waiting-room': '人気ガチャの待機列（開始時刻に順番を抽選、順番が来たら購入時間内に上限まで引けます）',
  wallet: 'コイン（ウォレット）',
  prizes: '獲得したカード（発送・コイン交換）',
  identity: 'アカウント（パスワードの条件など）',
  addresses: '住所録（お届け先）と郵便番号の検索',
  shipping: '獲得商品の発送依頼（確認・依頼・一覧・経過・キャンセル）',
  'promo-codes': '特典コード（無償コインの受け取りと利用履歴）',
  'login-bonus': 'ログインボーナス（日本時間で1日1回の無償コイン）',
  mailbox: 'メールボックス（あなたへ・お知らせ、既読、プレゼントの受け取り、未読件数）',
  progression: 'レベル・ランク・ランキング（会員のみ、期間は日本時間）',
  invitations: '友達招待（招待コード・リンク・招待した友達と特典の状態）',
  limits: '利用上限と自己除外（1か月の購入上限・ガチャ消費上限、1・3・6か月の自己除外）',
  winners: 'みんなの当選履歴（ログイン不要）と自分の抽選履歴・証明',
  fairness: 'ビーコン抽選の公開抽選ログ（ログイン不要・検証と集計用）',
  meta: 'このAPIの説明',
};

export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Secure-oripa.session_token',
    description: 'ウェブ: ログイン時に発行されるセッションCookie（HttpOnly, Secure, SameSite=Lax）。',
  },
  sessionBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'ネイティブアプリ: 同じセッションを `Authorization: Bearer <セッショントークン>` で送る。トークンはセッションCookieの値（署名付き）。',
  },
} as const;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperationObject>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: typeof SECURITY_SCHEMES };
}

/**
 * Builds the document. Response bodies are described as sent (zod's output), requests as accepted
 * (zod's input: a field with a default is optional). A named schema whose input differs from its
 * output gets a second component, `<Name>Input`.
 */
export function buildOpenApiDocument(
  operations: readonly ApiOperation[],
  info: { title: string; version: string; description?: string; serverUrl?: string },
): OpenApiDocument {
  const schemas = convertOperationSchemas(operations);
  const paths: OpenApiDocument['paths'] = {};
  const tagNames = new Set<string>();
  operations.forEach(({ spec }, index) => {
    spec.tags.forEach((tag) => tagNames.add(tag));
    (paths[spec.path] ??= {})[spec.method] = operationObject(spec, index, schemas);
  });

  return {
    openapi: OPENAPI_VERSION,
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: [{ url: info.serverUrl ?? '/api/v1' }],
    tags: [...tagNames]
      .sort()
      .map((name) => ({ name, ...(API_TAG_DESCRIPTIONS[name] ? { description: API_TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: { schemas: schemas.components, securitySchemes: SECURITY_SCHEMES },
  };
}
