// The human-readable reference page of /api/v1 (server-rendered HTML, no script), read from the
// OpenAPI document.
import type { OpenApiDocument } from './openapi';
import { COMPONENT_REF, type JsonSchema } from './openapi-schemas';

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
