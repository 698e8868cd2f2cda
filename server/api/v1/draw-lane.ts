// The draw lane (issue 32 item 5, docs/decisions/079): the hottest request of the shop — an app's or a
// script's `POST /api/v1/gachas/{gachaId}/draws` — answered straight from Node's request, without building
// the Fetch Request and Response, Hono's router and the dozen middleware around every request. It keeps
// every check that request meets on the long way, in the same order, with the same answers (a test sends
// each case both ways and compares them). Anything it does not recognise goes the long way untouched:
// a browser's post (Origin or Sec-Fetch-Site: the cross-site guard), a cookie, a query, a body that is
// not small JSON of a known length, a missing or malformed Idempotency-Key, traces on, or a draining server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { isRefusal, refuse, type Refusal } from '#modules/kernel';
import type { RefusalCode } from '#modules/refusals';
import { maintenanceDetails } from '#modules/shop';
import { idempotencyKeySchema } from '#modules/idempotency';
import type { ShopServices } from '#server/services';
import { CLIENT_IP_HEADER } from '#modules/identity/server';
import { describeUnexpectedError, errorBody } from '#server/api-error';
import { chooseEncoding, LIVE_BROTLI_PARAMS } from '#server/compression';
import { clientAddressOf, securityHeaders } from '#server/security';
import type { ShopConfig } from '#server/config';
import { ApiError, JAPANESE_PARSE, fieldMessages, refusalError, validationFailed } from './http';
import { bearerOf, bearerSessionToken, resolveMember } from './auth';
import { createDraw, createDrawAnswer, drawResultSchema } from './draws';
import { JSON_CONTENT_TYPE, parseJsonText } from './registry';

/** The path the lane answers, with the pack's id as the API's router reads it. */
const DRAW_PATH = /^\/api\/v1\/gachas\/([A-Za-z0-9_-]{1,100})\/draws$/;
/** The route's label in the metrics, as Hono names it. */
export const DRAW_ROUTE = '/api/v1/gachas/:gachaId/draws';
/** A draw's body is `{"count":N}`: anything larger goes the long way (and meets the body limit there). */
const LANE_MAX_BODY_BYTES = 4096;
const MEMBER_CACHE_CONTROL = 'private, no-store';

export interface DrawLane {
  /** Whether this request is one the lane answers (only its method, address and headers are read). */
  takes(req: IncomingMessage): boolean;
  /** Answers a request `takes` accepted. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

type LaneAnswer = { status: number; body: unknown; headers: Record<string, string> };

/**
 * The lane for one shop. Its security headers are the ones the shop's middleware gives a JSON answer,
 * read once from that middleware (a fresh CSP nonce per answer, as there).
 * @example const lane = await createDrawLane(services); if (lane.takes(req)) return void lane.serve(req, res);
 */
export async function createDrawLane(services: ShopServices): Promise<DrawLane> {
  const { config, logger } = services;
  const baseHeaders = await jsonAnswerHeaders(services);
  const { params: paramsSchema, body: bodySchema } = createDraw.spec;

  const takes = (req: IncomingMessage): boolean => {
    if (req.method !== 'POST' || !req.url || !DRAW_PATH.test(req.url)) return false;
    if (services.tracing) return false;
    const phase = services.serving?.phase;
    if (phase !== undefined && phase !== 'serving' && phase !== 'starting') return false;
    const h = req.headers;
    // A browser's post (the cross-site guard's case), a cookie (the session or read routing's marker).
    if (h.origin !== undefined || h['sec-fetch-site'] !== undefined || h.cookie !== undefined) return false;
    if (!bearerOf(h.authorization)) return false;
    if (h['transfer-encoding'] !== undefined || h['content-length'] === undefined) return false;
    const length = Number(h['content-length']);
    if (!Number.isInteger(length) || length > LANE_MAX_BODY_BYTES) return false;
    if (!h['content-type'] || !JSON_CONTENT_TYPE.test(h['content-type'])) return false;
    const key = h['idempotency-key'];
    return typeof key === 'string' && key !== '' && idempotencyKeySchema.safeParse(key).success;
  };

  /** The long way's steps for this operation (server/api/v1/registry.ts runOperation), in its order. */
  /** The answer, or null when the client went away before its body arrived (nothing was done). */
  const answerOf = async (req: IncomingMessage, reqId: string): Promise<LaneAnswer | null> => {
    try {
      const token = bearerSessionToken(services, bearerOf(req.headers.authorization)!);
      if (!token) throw new ApiError(401, 'UNAUTHENTICATED', 'ログインしてください。');
      const state = await services.maintenance.current();
      if (state.on) throw refusalError(refuse('MAINTENANCE', maintenanceDetails(state)));
      const text = await readBody(req);
      if (text === null) return null;
      const rawBody = parseJsonText(text);
      const fields: Record<string, string> = {};
      const gachaId = DRAW_PATH.exec(req.url!)![1]!;
      const params = paramsSchema!.safeParse({ gachaId }, JAPANESE_PARSE);
      if (!params.success) Object.assign(fields, fieldMessages(params.error, 'params'));
      const body = bodySchema!.safeParse(rawBody, JAPANESE_PARSE);
      if (!body.success) for (const [k, m] of Object.entries(fieldMessages(body.error, 'body'))) fields[k] ??= m;
      if (!params.success || !body.success) throw validationFailed(fields);
      const result = await createDrawAnswer(services, {
        sessionToken: token,
        resolveMember: () => resolveMember(services, headersOf(req, config)),
        gachaId: params.data.gachaId,
        count: (body.data as { count: number }).count,
        idempotencyKey: req.headers['idempotency-key'] as string,
      });
      if (isRefusal(result)) throw refusalError(result as Refusal<RefusalCode>);
      const parsed = drawResultSchema.safeParse(result.body);
      if (!parsed.success) throw new Error(`createDraw answered ${result.status} with a body its schema refuses`);
      return { status: result.status, body: parsed.data, headers: { 'cache-control': MEMBER_CACHE_CONTROL } };
    } catch (error) {
      if (error instanceof ApiError) {
        const headers = { ...lower(error.headers), 'cache-control': MEMBER_CACHE_CONTROL };
        return { status: error.status, body: errorBody(error.code, error.message, error.details, reqId), headers };
      }
      const answer = describeUnexpectedError(error, logger, reqId);
      return {
        status: answer.status,
        body: errorBody(answer.code, answer.message, undefined, reqId),
        headers: lower(answer.headers),
      };
    }
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const reqId = crypto.randomUUID();
    const answer = await answerOf(req, reqId);
    if (!answer) return void res.destroy();
    let payload: Buffer = Buffer.from(JSON.stringify(answer.body));
    const headers: Record<string, string | string[]> = { ...baseHeaders, ...answer.headers, 'x-request-id': reqId };
    headers['content-security-policy'] = withFreshNonce(baseHeaders['content-security-policy']);
    // compressResponses: a success by Accept-Encoding (a JSON answer has no Content-Length there, so its
    // size does not matter).
    const encoding = answer.status < 400 ? chooseEncoding(req.headers['accept-encoding']) : undefined;
    if (encoding) {
      payload = encoding === 'br' ? zlib.brotliCompressSync(payload, BROTLI) : zlib.gzipSync(payload, { level: 6 });
      headers['content-encoding'] = encoding;
    }
    headers['content-length'] = String(payload.length);
    // markWrites: a write sends read routing's marker (decision 075).
    const marker = services.reads?.writeMarker();
    if (marker) headers['set-cookie'] = marker;
    // drainingAnswers: an answer finished after SIGTERM closes its connection.
    const phase = services.serving?.phase;
    if (phase !== undefined && phase !== 'serving' && phase !== 'starting') headers.connection = 'close';
    res.writeHead(answer.status, headers);
    res.end(payload);
    const seconds = (performance.now() - started) / 1000;
    services.metrics?.httpRequest({ method: 'POST', route: DRAW_ROUTE, status: answer.status, seconds, lane: true });
    logger.info(
      { reqId, method: 'POST', path: req.url, status: answer.status, ms: Math.round(seconds * 10_000) / 10 },
      'request',
    );
  };

  return { takes, serve };
}

const BROTLI = { params: { ...LIVE_BROTLI_PARAMS } };

/**
 * The headers the shop's security middleware gives a JSON answer to a member's POST on this path, read
 * from the middleware itself (server/security.ts), with the Vary that compression adds; lower-case names.
 */
async function jsonAnswerHeaders(services: ShopServices): Promise<Record<string, string>> {
  const probe = new Hono();
  probe.use(securityHeaders(services.config, services.payments?.pageSources));
  probe.post('*', (c) => c.json({}, 201));
  const answer = await probe.request('http://lane.invalid/api/v1/gachas/probe/draws', { method: 'POST' });
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'content-length') headers[name] = value;
  });
  headers.vary = 'Accept-Encoding';
  if (!headers['content-security-policy']?.includes("'nonce-"))
    throw new Error('draw lane: the security headers carry no CSP nonce to renew');
  return headers;
}

/** The policy with a new nonce, as hono/secure-headers makes one per answer (16 random bytes, base64). */
const withFreshNonce = (policy: string | undefined) =>
  policy!.replace(
    /'nonce-[^']*'/,
    `'nonce-${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')}'`,
  );

const lower = (headers: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * The body, at most LANE_MAX_BODY_BYTES (its Content-Length, checked by `takes`); null when the client
 * closed the connection before sending all of it.
 */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  } catch (error) {
    if (req.destroyed || (error as { code?: string }).code === 'ECONNRESET') return null;
    throw error;
  }
  return req.complete ? Buffer.concat(chunks).toString('utf8') : null;
}

/**
 * The request's headers as a Fetch Headers, with the client's address as server/security.ts's clientAddress
 * puts it, for the rare draw that needs better-auth's session refresh.
 */
function headersOf(req: IncomingMessage, config: Pick<ShopConfig, 'TRUST_PROXY'>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const forwarded = headers.get('x-forwarded-for') ?? undefined;
  headers.set(
    CLIENT_IP_HEADER,
    clientAddressOf(config, forwarded, () => req.socket.remoteAddress),
  );
  return headers;
}
