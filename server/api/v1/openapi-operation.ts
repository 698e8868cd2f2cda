// One operation of the OpenAPI document: its parameters (path, query, headers, Idempotency-Key), its
// answers with the standard errors every operation may meet, its request body and its security.
import { IDEMPOTENCY_KEY_HEADER } from './http';
import { COMPONENT_REF, type ConvertedSchemas, type JsonSchema } from './openapi-schemas';
import { refusedDuringMaintenance, type ApiOperation, type ResponseSpec } from './registry';

type OperationSpec = ApiOperation['spec'];

export type OpenApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
};

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

/** The operation's parameters: path, query and headers from its schemas, then Idempotency-Key. */
function parametersOf(spec: OperationSpec, index: number, input: Record<string, JsonSchema>): OpenApiParameter[] {
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
  return parameters;
}

/** The errors every operation of its kind may meet, beside those it declares. */
function standardErrors(spec: OperationSpec): Record<number, { description: string; codes: string[] }> {
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
  return standard;
}

/** The operation's answers: the declared ones and the standard errors, each with its error codes. */
function responsesOf(
  spec: OperationSpec,
  index: number,
  output: Record<string, JsonSchema>,
): OpenApiOperationObject['responses'] {
  const responses: OpenApiOperationObject['responses'] = {};
  const errorCodes = (status: number, codes: string[]) => {
    const declared = (spec.responses as Record<number, ResponseSpec>)[status];
    return [...new Set([...codes, ...(declared?.codes ?? [])])];
  };
  const standard = standardErrors(spec);

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
  return responses;
}

/** The OpenAPI operation object of one API operation (its index names its converted schemas). */
export function operationObject(spec: OperationSpec, index: number, schemas: ConvertedSchemas): OpenApiOperationObject {
  const { input, output } = schemas;
  const parameters = parametersOf(spec, index, input);
  const responses = responsesOf(spec, index, output);
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
  return operation;
}
