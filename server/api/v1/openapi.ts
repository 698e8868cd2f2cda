// The OpenAPI 3.1 document of /api/v1, generated from the operations' zod schemas, and the
// human-readable reference page beside it (server-rendered HTML, no script).
import { z } from 'zod';
import { apiSchema, namedApiSchemas, refusedDuringMaintenance, type ApiOperation, type ResponseSpec } from './registry';
import { errorResponseSchema, IDEMPOTENCY_KEY_HEADER } from './http';

export const OPENAPI_VERSION = '3.1.1';

apiSchema('ErrorResponse', errorResponseSchema);

/** Japanese descriptions of the tags; a module with a new tag adds it here. */
export const API_TAG_DESCRIPTIONS: Record<string, string> = {
  catalogue: 'ジャンルとガチャ（ログイン不要）',
  draws: 'ガチャを引く',
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

type JsonSchema = Record<string, unknown>;
type OpenApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperationObject>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: typeof SECURITY_SCHEMES };
}

export interface OpenApiOperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  deprecated?: boolean;
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: { 'application/json': { schema: JsonSchema } };
      'x-error-codes'?: string[];
    }
  >;
  'x-auth': string;
}

const COMPONENT_REF = '#/components/schemas/';
const INPUT_MARK = '__INPUT__';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Removes what zod adds for validation but only clutters a reference. Answers may gain fields in a
 * later version, so response objects do not say `additionalProperties: false` (clients must ignore
 * fields they do not know).
 */
const tidy = (io: 'input' | 'output') => (ctx: { jsonSchema: JsonSchema }) => {
  const schema = ctx.jsonSchema;
  if (schema.format === 'date-time') delete schema.pattern;
  if (schema.minimum === -MAX_SAFE) delete schema.minimum;
  if (schema.maximum === MAX_SAFE) delete schema.maximum;
  if (io === 'output' && schema.additionalProperties === false) delete schema.additionalProperties;
};

function convert(roots: Map<string, z.ZodType>, io: 'input' | 'output', mark: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const namedIds = new Map<z.ZodType, string>();
  for (const [id, schema] of namedApiSchemas()) {
    registry.add(schema, { id });
    namedIds.set(schema, id);
  }
  // A root that is a named schema becomes a $ref to it; the same schema at two roots is converted once.
  const direct = new Map<string, string>();
  const firstRoot = new Map<z.ZodType, string>();
  const aliases = new Map<string, string>();
  for (const [id, schema] of roots) {
    const name = namedIds.get(schema);
    if (name) direct.set(id, name);
    else if (firstRoot.has(schema)) aliases.set(id, firstRoot.get(schema)!);
    else {
      firstRoot.set(schema, id);
      registry.add(schema, { id });
    }
  }
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_REF}${id}${mark}`,
    override: tidy(io) as never,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  for (const [id, name] of direct) schemas[id] = { $ref: `${COMPONENT_REF}${name}${mark}` };
  for (const [id, first] of aliases) schemas[id] = schemas[first]!;
  // A root schema also used inside another schema was given a synthetic id: put it back in place.
  const inline = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, depth));
    if (!value || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(`${COMPONENT_REF}__`) && depth < 20) {
      const { $ref: _, ...rest } = value as Record<string, unknown>;
      return { ...(inline(schemas[ref.slice(COMPONENT_REF.length).replace(mark, '')], depth + 1) as object), ...rest };
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner, depth)]));
  };
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, inline(schema, 0) as JsonSchema]));
}

/** Every $ref target in a schema. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF))
        found.add(inner.slice(COMPONENT_REF.length));
      else refsIn(inner, found);
    }
  }
  return found;
}

function rewriteRefs<T>(value: T, rename: (target: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)
          ? COMPONENT_REF + rename(inner.slice(COMPONENT_REF.length))
          : rewriteRefs(inner, rename);
    }
    return out as T;
  }
  return value;
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
  const inputRoots = new Map<string, z.ZodType>();
  const outputRoots = new Map<string, z.ZodType>();
  operations.forEach(({ spec }, index) => {
    for (const part of ['params', 'query', 'headers', 'body'] as const) {
      if (spec[part]) inputRoots.set(`__in_${index}_${part}`, spec[part]);
    }
    for (const [status, response] of Object.entries(spec.responses as Record<string, ResponseSpec>)) {
      if (response.schema) outputRoots.set(`__out_${index}_${status}`, response.schema);
    }
  });

  const output = convert(outputRoots, 'output', '');
  const inputRaw = convert(inputRoots, 'input', INPUT_MARK);
  const named = [...namedApiSchemas().keys()];

  // A named schema's input form differs when its own text differs or it refers to one that does.
  const plain = (schema: JsonSchema) => JSON.stringify(rewriteRefs(schema, (t) => t.replace(INPUT_MARK, '')));
  const differs = new Set(named.filter((id) => plain(inputRaw[id]!) !== JSON.stringify(output[id])));
  for (let changed = true; changed;) {
    changed = false;
    for (const id of named) {
      if (differs.has(id)) continue;
      if ([...refsIn(inputRaw[id])].some((target) => differs.has(target.replace(INPUT_MARK, '')))) {
        differs.add(id);
        changed = true;
      }
    }
  }
  const inputName = (target: string) => {
    const id = target.replace(INPUT_MARK, '');
    return differs.has(id) ? `${id}Input` : id;
  };
  const input: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(inputRaw)) input[id] = rewriteRefs(schema, inputName);

  const components: Record<string, JsonSchema> = {};
  for (const id of named) components[id] = output[id]!;
  // Input components that some request refers to (directly or through another component).
  const pending = [...inputRoots.keys()].flatMap((root) => [...refsIn(input[root])]);
  while (pending.length) {
    const name = pending.pop()!;
    if (components[name] || !name.endsWith('Input')) continue;
    const id = name.slice(0, -'Input'.length);
    components[name] = input[id]!;
    pending.push(...refsIn(input[id]));
  }

  const paths: OpenApiDocument['paths'] = {};
  const tagNames = new Set<string>();
  operations.forEach(({ spec }, index) => {
    spec.tags.forEach((tag) => tagNames.add(tag));
    const parameters: OpenApiParameter[] = [];
    const addParameters = (part: 'params' | 'query' | 'headers', where: OpenApiParameter['in']) => {
      const schema = input[`__in_${index}_${part}`] as
        { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
      for (const [name, property] of Object.entries(schema?.properties ?? {})) {
        const { description, ...rest } = property;
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (schema?.required ?? []).includes(name),
          ...(typeof description === 'string' ? { description } : {}),
          schema: rest,
        });
      }
    };
    addParameters('params', 'path');
    addParameters('query', 'query');
    addParameters('headers', 'header');
    if (spec.idempotencyKey) {
      parameters.push({
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: spec.idempotencyKey === 'required',
        description:
          '二重送信を防ぐキー（1〜255文字の半角英数字・記号）。同じキーと同じ内容の再送には最初の応答を返し、内容が違えば 409。24時間以上保持。',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
      });
    }

    const responses: OpenApiOperationObject['responses'] = {};
    const errorCodes = (status: number, codes: string[]) => {
      const declared = (spec.responses as Record<number, ResponseSpec>)[status];
      return [...new Set([...codes, ...(declared?.codes ?? [])])];
    };
    const standard: Record<number, { description: string; codes: string[] }> = {};
    const validates = spec.params || spec.query || spec.headers || spec.body || spec.idempotencyKey;
    if (validates) {
      standard[400] = {
        description: '入力内容に誤りがあります（details.fields に項目ごとの日本語メッセージ）。',
        codes: [
          'VALIDATION_FAILED',
          ...(spec.body ? ['INVALID_JSON'] : []),
          ...(spec.idempotencyKey
            ? ['IDEMPOTENCY_KEY_INVALID', ...(spec.idempotencyKey === 'required' ? ['IDEMPOTENCY_KEY_REQUIRED'] : [])]
            : []),
        ],
      };
    }
    if (spec.auth === 'member' || spec.auth === 'staff' || spec.auth === 'session')
      standard[401] = { description: 'ログインしていません。', codes: ['UNAUTHENTICATED'] };
    if (spec.auth === 'staff') standard[403] = { description: '運営スタッフのみが使えます。', codes: ['FORBIDDEN'] };
    if (spec.body)
      standard[415] = {
        description: 'Content-Type が application/json ではありません。',
        codes: ['UNSUPPORTED_MEDIA_TYPE'],
      };
    // Any operation may meet a database that refuses connections for a moment (server/api-error.ts).
    standard[503] = refusedDuringMaintenance(spec)
      ? {
          description:
            'メンテナンス中（MAINTENANCE: Retry-After 秒後、または details.endsAt の終了予定のあとに）、または混雑中（SERVICE_BUSY: Retry-After 秒後に同じ Idempotency-Key で）です。',
          codes: ['MAINTENANCE', 'SERVICE_BUSY'],
        }
      : {
          description: '混雑中です（SERVICE_BUSY: Retry-After 秒後に同じ Idempotency-Key で再送してください）。',
          codes: ['SERVICE_BUSY'],
        };
    standard[500] = {
      description: 'サーバーの不具合です（本文の requestId を添えてお問い合わせください）。',
      codes: ['INTERNAL_ERROR'],
    };

    const statuses = [...new Set([...Object.keys(spec.responses), ...Object.keys(standard)].map(Number))].sort(
      (a, b) => a - b,
    );
    for (const status of statuses) {
      const declared = (spec.responses as Record<number, ResponseSpec>)[status];
      const isError = status >= 400;
      const codes = isError ? errorCodes(status, standard[status]?.codes ?? []) : [];
      const schema = declared?.schema
        ? output[`__out_${index}_${status}`]!
        : isError
          ? { $ref: `${COMPONENT_REF}ErrorResponse` }
          : undefined;
      const headers = declared?.headers
        ? Object.fromEntries(
            Object.entries(declared.headers).map(([name, description]) => [
              name,
              { description, schema: { type: 'string' } },
            ]),
          )
        : undefined;
      responses[String(status)] = {
        description: declared?.description ?? standard[status]!.description,
        ...(headers ? { headers } : {}),
        ...(schema ? { content: { 'application/json': { schema } } } : {}),
        ...(codes.length ? { 'x-error-codes': codes } : {}),
      };
    }

    const body = spec.body ? input[`__in_${index}_body`]! : undefined;
    const memberSecurity: Record<string, string[]>[] = [{ sessionCookie: [] }, { sessionBearer: [] }];
    const operation: OpenApiOperationObject = {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [...spec.tags],
      ...(spec.deprecated ? { deprecated: true } : {}),
      security: spec.auth === 'none' ? [] : spec.auth === 'optional' ? [{}, ...memberSecurity] : memberSecurity,
      ...(parameters.length ? { parameters } : {}),
      ...(body && spec.body
        ? {
            requestBody: {
              required: !spec.body.safeParse(undefined).success,
              content: { 'application/json': { schema: body } },
            },
          }
        : {}),
      responses,
      'x-auth': spec.auth,
    };
    (paths[spec.path] ??= {})[spec.method] = operation;
  });

  return {
    openapi: OPENAPI_VERSION,
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: [{ url: info.serverUrl ?? '/api/v1' }],
    tags: [...tagNames]
      .sort()
      .map((name) => ({ name, ...(API_TAG_DESCRIPTIONS[name] ? { description: API_TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
  };
}

// ---------------------------------------------------------------------------------------------
// The reference page

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A short Japanese-friendly rendering of a JSON Schema's type: 'integer (1〜100)', 'Gacha[]', …. */
export function describeType(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') return schema.$ref.slice(COMPONENT_REF.length);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as JsonSchema[]).map(describeType).join(' | ');
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const parts = types.map((type) => {
    if (type === 'array') return `${describeType(schema.items as JsonSchema) || 'any'}[]`;
    if (type === 'string' && schema.format) return `string (${String(schema.format)})`;
    if (type === 'integer' || type === 'number') {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      const max = schema.maximum ?? schema.exclusiveMaximum;
      return min !== undefined || max !== undefined ? `${type} (${min ?? ''}〜${max ?? ''})` : type;
    }
    return type;
  });
  return parts.join(' | ') || 'any';
}

const AUTH_LABELS: Record<string, string> = {
  none: 'ログイン不要',
  optional: 'ログイン任意',
  member: 'ログインが必要',
  staff: '運営スタッフのみ',
  session: 'ログインが必要',
};
const PLACE_LABELS: Record<string, string> = { path: 'パス', query: 'クエリ', header: 'ヘッダー' };

function fieldsTable(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): string {
  let resolved = schema;
  if (resolved && typeof resolved.$ref === 'string') resolved = components[resolved.$ref.slice(COMPONENT_REF.length)];
  const properties = (resolved?.properties ?? {}) as Record<string, JsonSchema>;
  const required = (resolved?.required ?? []) as string[];
  if (!Object.keys(properties).length) return `<p><code>${escapeHtml(describeType(schema))}</code></p>`;
  const rows = Object.entries(properties)
    .map(
      ([name, property]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td><code>${escapeHtml(describeType(property))}</code></td><td>${required.includes(name) ? '必須' : '任意'}</td><td>${escapeHtml(String(property.description ?? ''))}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>項目</th><th>型</th><th>必須</th><th>説明</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The reference page: every operation with its method, path, summary, parameters, body and answers. */
export function renderReferencePage(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const byTag = new Map<string, typeof operations>();
  for (const entry of operations) {
    const tag = entry.operation.tags[0] ?? 'その他';
    byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
  }
  const tagDescription = (name: string) => document.tags.find((t) => t.name === name)?.description;

  const toc = [...byTag]
    .map(
      ([tag, entries]) =>
        `<li>${escapeHtml(tagDescription(tag) ?? tag)}<ul>${entries
          .map(
            ({ path, method, operation }) =>
              `<li><a href="#${escapeHtml(operation.operationId)}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></a> ${escapeHtml(operation.summary)}</li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');

  const sections = [...byTag]
    .map(([tag, entries]) => {
      const items = entries
        .map(({ path, method, operation }) => {
          const parameters = operation.parameters?.length
            ? `<h4>パラメーター</h4><table><thead><tr><th>名前</th><th>場所</th><th>型</th><th>必須</th><th>説明</th></tr></thead><tbody>${operation.parameters
                .map(
                  (p) =>
                    `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${PLACE_LABELS[p.in]}</td><td><code>${escapeHtml(describeType(p.schema))}</code></td><td>${p.required ? '必須' : '任意'}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
                )
                .join('')}</tbody></table>`
            : '';
          const body = operation.requestBody
            ? `<h4>リクエスト本文（application/json${operation.requestBody.required ? '' : '、省略可'}）</h4>${fieldsTable(operation.requestBody.content['application/json'].schema, document.components.schemas)}`
            : '';
          const responses = `<h4>レスポンス</h4><table><thead><tr><th>ステータス</th><th>本文</th><th>説明</th></tr></thead><tbody>${Object.entries(
            operation.responses,
          )
            .map(([status, response]) => {
              const schema = response.content?.['application/json'].schema;
              const codes = response['x-error-codes']?.length
                ? `<br><small>エラーコード: ${response['x-error-codes'].map((c) => `<code>${escapeHtml(c)}</code>`).join(', ')}</small>`
                : '';
              return `<tr><td>${escapeHtml(status)}</td><td>${schema ? `<code>${escapeHtml(describeType(schema))}</code>` : '—'}</td><td>${escapeHtml(response.description)}${codes}</td></tr>`;
            })
            .join('')}</tbody></table>`;
          return `<section class="op" id="${escapeHtml(operation.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(operation.summary)}</p>
${operation.description ? `<p>${escapeHtml(operation.description)}</p>` : ''}
<p class="meta">operationId: <code>${escapeHtml(operation.operationId)}</code> ・ ${AUTH_LABELS[operation['x-auth']] ?? ''}${operation.deprecated ? ' ・ 非推奨' : ''}</p>
${parameters}${body}${responses}
</section>`;
        })
        .join('\n');
      return `<section><h2>${escapeHtml(tagDescription(tag) ?? tag)} <small>(${escapeHtml(tag)})</small></h2>\n${items}</section>`;
    })
    .join('\n');

  const schemaSections = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<section class="op" id="schema-${escapeHtml(name)}"><h3><code>${escapeHtml(name)}</code></h3>${schema.description ? `<p>${escapeHtml(String(schema.description))}</p>` : ''}${fieldsTable(schema, document.components.schemas)}</section>`,
    )
    .join('\n');

  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>APIリファレンス | ${escapeHtml(document.info.title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;line-height:1.6;margin:0 auto;max-width:960px;padding:16px;color:#1f2937}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
table{border-collapse:collapse;width:100%;margin:8px 0;font-size:.9em;display:block;overflow-x:auto}
td:not(:last-child),th{white-space:nowrap}
th,td{border:1px solid #d1d5db;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f4f6}
.op{border-top:1px solid #e5e7eb;padding-top:8px;margin-top:16px}
.method{display:inline-block;min-width:4em;text-align:center;border-radius:4px;color:#fff;background:#2563eb;font-size:.8em;padding:2px 6px}
.method.post{background:#16a34a}.method.delete{background:#dc2626}.method.put,.method.patch{background:#d97706}
.meta{color:#4b5563;font-size:.9em}
</style>
</head>
<body>
<h1>APIリファレンス <small>${escapeHtml(document.info.title)} v${escapeHtml(document.info.version)}</small></h1>
<p>機械で読める説明（OpenAPI ${escapeHtml(document.openapi)}）: <a href="openapi.json"><code>openapi.json</code></a> ・ ベースURL: <code>${escapeHtml(document.servers[0]?.url ?? '')}</code></p>
<h2>共通の約束</h2>
<ul>
<li><strong>認証</strong>: ウェブはセッションCookie、アプリは同じセッションを <code>Authorization: Bearer &lt;トークン&gt;</code> で送ります。ログインが必要な操作はログインしていないと 401 <code>UNAUTHENTICATED</code>。</li>
<li><strong>エラー</strong>: 本文は常に <code>{ "error": { "code", "message", "details", "requestId" } }</code>。<code>code</code> は英語の固定の識別子、<code>message</code> は会員に表示できる日本語。入力エラーは 400 <code>VALIDATION_FAILED</code> で <code>details.fields</code> に項目ごとのメッセージ。</li>
<li><strong>ステータス</strong>: 400 入力の誤り / 401 未ログイン / 403 権限なし / 404 ない（または他の会員のもの）/ 409 競合 / 422 業務ルールで拒否 / 429 回数制限（<code>Retry-After</code>）。</li>
<li><strong>一覧</strong>: <code>cursor</code>（前の応答の <code>nextCursor</code> をそのまま）と <code>limit</code>（既定 20、最大 100）で読み、<code>{ items, nextCursor }</code> が返ります。最後のページでは <code>nextCursor</code> が null。</li>
<li><strong>日時</strong>: ISO 8601（UTC、<code>Z</code> 付き）。表示は日本時間に変換してください。金額と個数は整数です。</li>
<li><strong>冪等性</strong>: コインや抽選を動かす操作は <code>Idempotency-Key</code> ヘッダーを受け付けます。同じキーで同じ内容の再送には最初の応答を返し、内容が違えば 409。</li>
</ul>
<h2>目次</h2>
<ul>${toc}</ul>
${sections}
<h2>スキーマ</h2>
${schemaSections}
</body>
</html>
`;
}
