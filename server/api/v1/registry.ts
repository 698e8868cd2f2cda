// The operation registry of /api/v1: each operation is declared once with zod schemas; the same
// declaration mounts the Hono route (auth, validation, the answer) and describes it in OpenAPI.
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { isRefusal, refuse, type Refusal } from '#modules/kernel';
import { apiError } from '#server/api-error';
import type { RefusalCode } from '#modules/refusals';
import type { ShopServices } from '#server/services';
import { resolveMember, sessionTokenOf, type SessionMember } from './auth';
import { staffAccessOfMember } from '#modules/identity/server';
import { maintenanceDetails } from '#modules/shop';
import { ApiError, JAPANESE_PARSE, fieldMessages, readIdempotencyKey, refusalError, validationFailed } from './http';

export type ApiEnv = { Variables: { requestId: string; secureHeadersNonce?: string } };

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * - `none`: public; the handler gets `member: null` (no session lookup).
 * - `optional`: public; the handler gets the member when one is signed in.
 * - `member`: 401 UNAUTHENTICATED without a session.
 * - `staff`: as member, and 403 FORBIDDEN unless a staff role ('admin', 'staff'); 403
 *   SECOND_FACTOR_REQUIRED while that account has no TOTP (staffAccessOf, decision 016).
 * - `session`: as member for clients, but the session is not looked up here: the handler gets
 *   `sessionToken` (its signature checked) and resolves it inside its own database call, so the
 *   operation is one round trip (createDraw). `member` is null.
 */
export type AuthMode = 'none' | 'optional' | 'member' | 'staff' | 'session';

/** Modes that need a signed-in member (401 without one). */
export const MEMBER_AUTH_MODES: readonly AuthMode[] = ['member', 'staff', 'session'];

// ---------------------------------------------------------------------------------------------
// Named schemas: they become components/schemas/<id> in the OpenAPI document.

const components = new Map<string, z.ZodType>();

/**
 * Names a schema so that the OpenAPI document refers to it as `#/components/schemas/<id>`.
 * @example export const gachaSchema = apiSchema('Gacha', z.object({ id: z.string() }))
 */
export function apiSchema<S extends z.ZodType>(id: string, schema: S): S {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(id)) throw new Error(`apiSchema: '${id}' must be PascalCase`);
  const existing = components.get(id);
  if (existing && existing !== schema) throw new Error(`apiSchema: '${id}' is already a different schema`);
  components.set(id, schema);
  return schema;
}

/** Every named schema (read by the OpenAPI builder). */
export const namedApiSchemas = (): ReadonlyMap<string, z.ZodType> => components;

// ---------------------------------------------------------------------------------------------
// Declaring an operation

export interface ResponseSpec {
  /** Japanese, shown in the reference. */
  description: string;
  /** The JSON body. Omit for 204, and for an error status (the standard error body is implied). */
  schema?: z.ZodType;
  /** For error statuses: the error codes this operation answers with it (documentation). */
  codes?: readonly string[];
  /** Response headers worth documenting, e.g. { 'Retry-After': '再試行までの秒数' }. */
  headers?: Readonly<Record<string, string>>;
}

export type ResponsesSpec = { readonly [status: number]: ResponseSpec };

// Params, query and headers are objects whose keys are the parameter names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any shape and any strictness: the operation fixes them
type ObjectSchema = z.ZodObject<any, any>;
type OutputOf<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;
type MemberFor<A extends AuthMode> = A extends 'member' | 'staff'
  ? SessionMember
  : A extends 'optional'
    ? SessionMember | null
    : null;

export interface HandlerInput<A extends AuthMode, P, Q, H, B> {
  c: Context<ApiEnv>;
  services: ShopServices;
  member: MemberFor<A>;
  params: OutputOf<P, Record<string, never>>;
  query: OutputOf<Q, Record<string, never>>;
  headers: OutputOf<H, Record<string, never>>;
  body: OutputOf<B, undefined>;
  /** The Idempotency-Key header (checked), or null when the operation takes none or none was sent. */
  idempotencyKey: string | null;
  /** For `auth: 'session'`: the session token of the request (signature checked, not looked up). */
  sessionToken: A extends 'session' ? string : null;
  requestId: string;
}

/**
 * A body type that also takes readonly arrays: `const R` (which keeps `status: 200` a literal)
 * makes TypeScript read array literals in a handler's answer as readonly.
 */
type AcceptReadonly<T> = T extends readonly (infer U)[]
  ? readonly AcceptReadonly<U>[]
  : T extends Date | ((...args: never[]) => unknown)
    ? T
    : T extends object
      ? { [K in keyof T]: AcceptReadonly<T[K]> }
      : T;

/**
 * What a handler answers: one of its declared statuses with the matching body, a raw Response, or
 * a module's refusal (answered with the status and message of modules/refusals).
 */
export type HandlerResult<R extends ResponsesSpec> =
  | Response
  | Refusal<RefusalCode>
  | {
      // (`keyof R`, not `keyof R & number`: with the intersection TypeScript widens `status: 200` to number.)
      [K in keyof R]: R[K] extends { schema: z.ZodType }
        ? { status: K; body: AcceptReadonly<z.input<R[K]['schema']>>; headers?: Record<string, string> }
        : { status: K; body?: undefined; headers?: Record<string, string> };
    }[keyof R];

export interface OperationSpec<
  A extends AuthMode = AuthMode,
  P extends ObjectSchema | undefined = ObjectSchema | undefined,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  H extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends ResponsesSpec = ResponsesSpec,
> {
  /** Stable camelCase id, unique across the API (clients generate method names from it). */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form below /api/v1: '/gachas/{gachaId}'. */
  path: string;
  /** One Japanese line. */
  summary: string;
  description?: string;
  tags: readonly string[];
  auth: A;
  /** One key per {name} in the path. */
  params?: P;
  query?: Q;
  /** Header names in lower case. */
  headers?: H;
  /** The JSON request body (Content-Type: application/json). */
  body?: B;
  /** Whether the operation reads Idempotency-Key: 'required' answers 400 without it. */
  idempotencyKey?: 'required' | 'optional';
  /**
   * While maintenance mode is on, a member's write (any method but GET, auth 'member' or 'session') is
   * answered 503 MAINTENANCE before its handler runs (decision 025); 'open' keeps one that writes nothing
   * of the shop's (a quote, a sign-in hand-off). Staff operations are never refused.
   */
  duringMaintenance?: 'open';
  /** Cache-Control of its answers; member operations default to 'private, no-store'. */
  cacheControl?: string;
  deprecated?: boolean;
  responses: R;
  handler: (input: HandlerInput<A, P, Q, H, B>) => Promise<HandlerResult<R>> | HandlerResult<R>;
}

/** A declared operation, as the router and the OpenAPI builder see it. */
export interface ApiOperation {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the router holds operations of every parameter type
  readonly spec: OperationSpec<AuthMode, any, any, any, any, ResponsesSpec>;
  /** The Hono path: '/gachas/:gachaId'. */
  readonly honoPath: string;
  /** The names in the path, in order. */
  readonly pathParams: readonly string[];
}

const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;
const PATH = /^(\/(?:[a-z0-9][a-z0-9._-]*|\{[a-z][A-Za-z0-9]*\}))+$|^\/$/;

/**
 * Declares one operation. Nothing is mounted yet: pass it (in a list) to createApiV1, which mounts
 * it and lists it in openapi.json.
 * @example
 * export const getGacha = defineOperation({
 *   operationId: 'getGacha', method: 'get', path: '/gachas/{gachaId}', summary: 'ガチャの詳細',
 *   tags: ['catalogue'], auth: 'none', params: z.object({ gachaId: z.string() }),
 *   responses: { 200: { description: 'ガチャ', schema: gachaSchema }, 404: { description: 'ない', codes: ['GACHA_NOT_FOUND'] } },
 *   handler: async ({ params, services }) => {
 *     const gacha = await findGacha(services.db, params.gachaId);
 *     if (!gacha) return refuse('GACHA_NOT_FOUND'); // status and message from modules/refusals
 *     return { status: 200, body: gacha };
 *   },
 * });
 */
export function defineOperation<
  A extends AuthMode,
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  H extends ObjectSchema | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  const R extends ResponsesSpec = ResponsesSpec,
>(spec: OperationSpec<A, P, Q, H, B, R>): ApiOperation {
  const where = `defineOperation(${spec.operationId})`;
  if (!OPERATION_ID.test(spec.operationId)) throw new Error(`${where}: operationId must be camelCase`);
  if (!PATH.test(spec.path)) throw new Error(`${where}: path '${spec.path}' must look like /gachas/{gachaId}`);
  const pathParams = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const declared = spec.params ? Object.keys(spec.params.shape) : [];
  if ([...pathParams].sort().join() !== [...declared].sort().join()) {
    throw new Error(`${where}: params must declare exactly the path's names (${pathParams.join(', ') || 'none'})`);
  }
  if (spec.headers && Object.keys(spec.headers.shape).some((name) => name !== name.toLowerCase())) {
    throw new Error(`${where}: header names must be lower case`);
  }
  if (spec.body && spec.method === 'get') throw new Error(`${where}: a GET has no body`);
  for (const [status, response] of Object.entries(spec.responses)) {
    if (!/^[1-5]\d\d$/.test(status)) throw new Error(`${where}: response status '${status}'`);
    if (Number(status) < 400 && Number(status) !== 204 && !response.schema)
      throw new Error(`${where}: response ${status} needs a schema`);
  }
  return {
    spec: spec as unknown as ApiOperation['spec'],
    honoPath: spec.path.replace(/\{([^}]+)\}/g, ':$1'),
    pathParams,
  };
}

// ---------------------------------------------------------------------------------------------
// Mounting

/** A JSON media type (application/json, application/problem+json…), with or without parameters. */
export const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Mounts operations on a Hono app; fails at start on a duplicate operationId or method and path. */
export function mountOperations(app: Hono<ApiEnv>, operations: readonly ApiOperation[], services: ShopServices) {
  const ids = new Set<string>();
  const routes = new Map<string, string[]>();
  for (const operation of operations) {
    const { spec } = operation;
    if (ids.has(spec.operationId)) throw new Error(`duplicate operationId '${spec.operationId}'`);
    ids.add(spec.operationId);
    const methods = routes.get(operation.honoPath) ?? [];
    if (methods.includes(spec.method)) throw new Error(`two operations for ${spec.method.toUpperCase()} ${spec.path}`);
    routes.set(operation.honoPath, [...methods, spec.method]);
    app.on(spec.method.toUpperCase(), operation.honoPath, (c) => runOperation(c, operation, services));
  }
  // A known path with another method: 405 with Allow, never a page.
  for (const [honoPath, methods] of routes) {
    const allow = methods.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()])).join(', ');
    app.all(honoPath, (c) => {
      c.header('Allow', allow);
      return apiError(c, 405, 'METHOD_NOT_ALLOWED', 'このAPIはその方法では呼び出せません。');
    });
  }
}

async function runOperation(c: Context<ApiEnv>, operation: ApiOperation, services: ShopServices): Promise<Response> {
  const { spec } = operation;
  try {
    // 1. Who is calling.
    let member: SessionMember | null = null;
    let sessionToken: string | null = null;
    if (spec.auth === 'session') {
      sessionToken = await sessionTokenOf(services, c.req.raw.headers);
      if (!sessionToken) throw new ApiError(401, 'UNAUTHENTICATED', 'ログインしてください。');
    } else if (spec.auth !== 'none') {
      member = await resolveMember(services, c.req.raw.headers);
      if (!member && (spec.auth === 'member' || spec.auth === 'staff')) {
        throw new ApiError(401, 'UNAUTHENTICATED', 'ログインしてください。');
      }
      if (spec.auth === 'staff' && member) {
        // Staff pages and operations need the second factor (decision 016): the role alone is not enough.
        const access = await staffAccessOfMember(services.db, member.id);
        if (access === 'not-staff') throw new ApiError(403, 'FORBIDDEN', 'この操作を行う権限がありません。');
        if (access === 'needs-second-factor') throw refusalError(refuse('SECOND_FACTOR_REQUIRED'));
      }
    }
    // 1b. Maintenance mode: from this instance's cached switch (the draw and the checkout check it
    // again in their own transactions, so an instance that has not seen the switch yet is still exact).
    if (refusedDuringMaintenance(spec)) {
      const state = await services.maintenance.current();
      if (state.on) throw refusalError(refuse('MAINTENANCE', maintenanceDetails(state)));
    }
    // 2. The body's media type and JSON syntax.
    let rawBody: unknown = undefined;
    if (spec.body) rawBody = await readJsonBody(c);
    // 3. Idempotency-Key.
    const idempotencyKey = spec.idempotencyKey
      ? readIdempotencyKey(c, { required: spec.idempotencyKey === 'required' })
      : null;
    // 4. Every field at once, so a form can show all its messages.
    const fields: Record<string, string> = {};
    const parse = (schema: z.ZodType | undefined, value: unknown, root: string) => {
      if (!schema) return root === 'body' ? undefined : {};
      const result = schema.safeParse(value, JAPANESE_PARSE);
      if (result.success) return result.data;
      for (const [key, message] of Object.entries(fieldMessages(result.error, root))) fields[key] ??= message;
      return undefined;
    };
    const params = parse(spec.params, c.req.param(), 'params');
    const query = parse(spec.query, queryObject(c), 'query');
    const headers = parse(spec.headers, headerObject(c), 'headers');
    const body = parse(spec.body, rawBody, 'body');
    if (Object.keys(fields).length) throw validationFailed(fields);

    const result = await spec.handler({
      c,
      services,
      member: member as never,
      params: params as never,
      query: query as never,
      headers: headers as never,
      body: body as never,
      idempotencyKey,
      sessionToken: sessionToken as never,
      requestId: c.get('requestId'),
    });
    if (result instanceof Response) return result;
    if (isRefusal(result)) throw refusalError(result as Refusal<RefusalCode>);
    return answer(c, operation, result);
  } catch (error) {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      if (MEMBER_AUTH_MODES.includes(spec.auth)) c.header('Cache-Control', 'private, no-store');
      return apiError(c, error.status, error.code, error.message, error.details);
    }
    throw error;
  }
}

/**
 * Whether maintenance mode refuses this operation: a member's write not marked `duringMaintenance: 'open'`.
 * @example refusedDuringMaintenance(createDraw.spec) // true
 */
export function refusedDuringMaintenance(spec: Pick<OperationSpec, 'method' | 'auth' | 'duringMaintenance'>): boolean {
  return (
    spec.method !== 'get' && (spec.auth === 'member' || spec.auth === 'session') && spec.duringMaintenance !== 'open'
  );
}

/** The declared answer, its body parsed by the declared schema (unknown fields never leak out). */
function answer(
  c: Context<ApiEnv>,
  operation: ApiOperation,
  result: { status: PropertyKey; body?: unknown; headers?: Record<string, string> },
) {
  const status = Number(result.status);
  const { spec } = operation;
  const declared = spec.responses[status];
  if (!declared) throw new Error(`${spec.operationId} answered an undeclared status ${String(result.status)}`);
  for (const [name, value] of Object.entries(result.headers ?? {})) c.header(name, value);
  const cacheControl = spec.cacheControl ?? (MEMBER_AUTH_MODES.includes(spec.auth) ? 'private, no-store' : undefined);
  if (cacheControl) c.header('Cache-Control', cacheControl);
  if (!declared.schema) return c.body(null, status as StatusCode);
  const parsed = declared.schema.safeParse(result.body);
  if (!parsed.success) {
    throw new Error(
      `${spec.operationId} answered ${status} with a body its schema refuses: ${z.prettifyError(parsed.error)}`,
    );
  }
  return c.json(parsed.data as object, status as ContentfulStatusCode);
}

async function readJsonBody(c: Context<ApiEnv>): Promise<unknown> {
  const contentType = c.req.header('content-type');
  const text = await c.req.text();
  if (!contentType && text === '') return undefined;
  if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'JSON形式（Content-Type: application/json）で送信してください。');
  }
  return parseJsonText(text);
}

/**
 * A JSON body's text as the operations read it: nothing for blank text, 400 INVALID_JSON for broken JSON.
 * @example parseJsonText('{"count":1}') // { count: 1 }
 */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', '送信内容のJSONの形式が正しくありません。');
  }
}

/** The query as an object: one value as a string, a repeated name as an array. */
function queryObject(c: Context<ApiEnv>): Record<string, string | string[]> {
  const all = c.req.queries();
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(all)) query[name] = values.length === 1 ? values[0]! : values;
  return query;
}

function headerObject(c: Context<ApiEnv>): Record<string, string> {
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, name) => (headers[name] = value));
  return headers;
}
