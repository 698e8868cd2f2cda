// Error answers that would otherwise leave without the shop's shape: empty bodies (better-auth's
// unknown paths, a 416 for a range past a file's end), better-auth's own JSON errors, and what Node's
// HTTP parser and the Node adapter refuse before Hono sees the request (431 for a URL or headers over
// 16 KiB, 400 for a malformed request line or header or a request without a Host, 405 for CONNECT).
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from './logger';
import { AUTH_ERROR_MESSAGES } from '#modules/identity';

/** The stable code and Japanese message for an error status that carries nothing of its own. */
const STATUS_ERRORS: Record<number, { code: string; message: string }> = {
  400: { code: 'BAD_REQUEST', message: '送信内容が正しくありません。' },
  401: { code: 'UNAUTHENTICATED', message: 'ログインしてください。' },
  403: { code: 'FORBIDDEN', message: 'この操作を行う権限がありません。' },
  404: { code: 'NOT_FOUND', message: 'ページが見つかりません。' },
  405: { code: 'METHOD_NOT_ALLOWED', message: 'この方法では呼び出せません。' },
  408: { code: 'REQUEST_TIMEOUT', message: '送信に時間がかかりすぎました。もう一度お試しください。' },
  409: { code: 'CONFLICT', message: 'ほかの操作と重なりました。もう一度お試しください。' },
  413: { code: 'REQUEST_TOO_LARGE', message: '送信内容が大きすぎます。' },
  414: { code: 'URI_TOO_LONG', message: 'アドレスが長すぎます。' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'この形式の送信には対応していません。' },
  416: { code: 'RANGE_NOT_SATISFIABLE', message: '指定された範囲はファイルの外です。' },
  417: { code: 'EXPECTATION_FAILED', message: 'この送信方法には対応していません。' },
  422: { code: 'UNPROCESSABLE', message: '送信内容を処理できませんでした。' },
  429: { code: 'RATE_LIMITED', message: AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS! },
  431: {
    code: 'REQUEST_HEADERS_TOO_LARGE',
    message: 'アドレスまたはヘッダーが長すぎます。短くしてからお試しください。',
  },
  500: { code: 'INTERNAL_ERROR', message: '申し訳ありません。エラーが発生しました。時間をおいてお試しください。' },
  503: { code: 'SERVICE_UNAVAILABLE', message: 'ただいま混み合っています。時間をおいてお試しください。' },
};

/** @example statusError(404, '/api/auth/nope') // { code: 'NOT_FOUND', message: 'APIが見つかりません。' } */
export function statusError(status: number, path: string): { code: string; message: string } {
  if (status === 404 && path.startsWith('/api/')) return { code: 'NOT_FOUND', message: 'APIが見つかりません。' };
  return STATUS_ERRORS[status] ?? (status >= 500 ? STATUS_ERRORS[500]! : STATUS_ERRORS[400]!);
}

/** Headers that describe the empty body being replaced, not the error that replaces it. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'etag',
  'last-modified',
  'accept-ranges',
  'cache-control',
];

const jsonHeaders = (from: Headers) => {
  const headers = new Headers(from);
  for (const name of BODY_HEADERS) headers.delete(name);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return headers;
};

/**
 * Gives every error answer with an empty body (status ≥ 400, not HEAD) the body of docs/api.md. Mount it
 * inside the security headers, so they are added to the new answer.
 */
export function emptyErrorsAsJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || c.req.method === 'HEAD') return;
    if (res.body !== null && res.headers.get('content-length') !== '0') return;
    const requestId = c.get('requestId' as never) as string | undefined;
    const body = JSON.stringify({
      error: { ...statusError(res.status, c.req.path), ...(requestId ? { requestId } : {}) },
    });
    const headers = jsonHeaders(res.headers);
    // Hono copies the old answer's headers onto a new one: drop it first (as compression.ts does).
    c.res = undefined as unknown as Response;
    c.res = new Response(body, { status: res.status, headers });
  };
}

/**
 * better-auth's answer, with its errors in the shop's shape too: its own JSON (`{ code, message }`, in
 * English) keeps those fields for better-auth's clients and gains `error` with a Japanese message; an
 * empty error body becomes the shop's error; a 429 gets the standard Retry-After beside X-Retry-After.
 */
export async function authAnswer(response: Response, path: string, requestId: string | undefined): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.clone().text();
  let own: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) own = parsed as Record<string, unknown>;
  } catch {
    own = null;
  }
  if (own && typeof own.error === 'object' && own.error !== null) return response;
  const fallback = statusError(response.status, path);
  const ownCode = typeof own?.code === 'string' ? own.code : undefined;
  const error = {
    code: response.status === 429 ? 'RATE_LIMITED' : (ownCode ?? fallback.code),
    message: (response.status !== 429 && ownCode && AUTH_ERROR_MESSAGES[ownCode]) || fallback.message,
    ...(requestId ? { requestId } : {}),
  };
  const headers = jsonHeaders(response.headers);
  const retryAfter = response.headers.get('x-retry-after');
  if (response.status === 429 && retryAfter && !headers.has('retry-after')) headers.set('Retry-After', retryAfter);
  return new Response(JSON.stringify({ ...(own ?? {}), error }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * The status for what Node's HTTP parser refused, by its error code (as Node's own default answer
 * picks it): headers or URL over 16 KiB 431, a chunk extension over its limit 413, a request too slow
 * to arrive 408, anything else malformed (a request line without a version, an invalid header, a bad
 * Content-Length or chunk, every other HPE_* code) 400.
 * @example parserRefusalStatus('HPE_INVALID_HEADER_TOKEN') === 400
 */
export function parserRefusalStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * A whole HTTP/1.1 answer written straight to a socket (the request never became one Hono could
 * answer): status line, the JSON error of docs/api.md, and Connection: close, since what follows on that
 * connection cannot be trusted to start a request.
 */
function rawErrorAnswer(status: number, requestId: string, extraHeaders = ''): string {
  const body = JSON.stringify({ error: { ...statusError(status, ''), requestId } });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'X-Content-Type-Options: nosniff\r\n' +
    `X-Request-Id: ${requestId}\r\n` +
    extraHeaders +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * The http server's `clientError` listener: what Node's parser refuses (a URL or headers over its 16 KiB
 * limit, a malformed request line or header, a request too slow to arrive) is answered in the shop's
 * JSON shape, where Node would answer with an empty body. The request never reached Hono, so the id is
 * made here.
 * @example server.on('clientError', answerClientError(logger))
 */
export function answerClientError(logger: Logger) {
  return (error: Error & { code?: string }, socket: Duplex) => {
    // A connection that is gone, or one already in the middle of an answer, cannot take another one.
    const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    const status = parserRefusalStatus(error.code);
    const requestId = randomUUID();
    logger.info({ reqId: requestId, status, code: error.code }, 'request refused by the HTTP parser');
    socket.end(rawErrorAnswer(status, requestId));
  };
}

/**
 * The http server's `connect` listener: the shop is no proxy, so a CONNECT is answered 405 with the
 * JSON error (without a listener Node would close the connection without a word).
 * @example server.on('connect', refuseConnect(logger))
 */
export function refuseConnect(logger: Logger) {
  return (_request: IncomingMessage, socket: Duplex) => {
    const requestId = randomUUID();
    logger.info({ reqId: requestId, status: 405 }, 'CONNECT refused');
    if (socket.writable) socket.end(rawErrorAnswer(405, requestId, 'Allow: GET, HEAD, POST\r\n'));
    else socket.destroy();
  };
}

/** Writes the JSON error of docs/api.md through Node's own response, and closes the connection after it. */
function writeJsonError(response: ServerResponse, status: number): void {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { ...statusError(status, ''), requestId } });
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
    Connection: 'close',
  });
  response.end(body);
}

/**
 * The http server's `checkExpectation` listener: an `Expect` other than 100-continue is answered 417
 * with the JSON error (Node's own 417 has an empty body).
 * @example server.on('checkExpectation', refuseExpectation())
 */
export function refuseExpectation() {
  return (_request: IncomingMessage, response: ServerResponse) => writeJsonError(response, 417);
}

/**
 * Answers 400 with the JSON error, and says true, for a request that is not HTTP/1.x: Node's parser
 * lets a request line without a version through as HTTP/0.9 (`GET /`), and takes `HTTP/2.0` in a text
 * request line; neither is a request the shop speaks.
 * @example if (refuseOtherVersions(req, res)) return;
 */
export function refuseOtherVersions(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.httpVersionMajor === 1) return false;
  writeJsonError(response, 400);
  return true;
}

/**
 * The Node adapter's `errorHandler`: a request Node parsed but no URL can be made of (no Host header,
 * as in `GET /` without a version or an HTTP/1.0 request without one, `OPTIONS *`, an invalid host or
 * absolute URL) is answered 400 with the JSON error, where the adapter answers an empty 400. Anything
 * else thrown before Hono answered is a 500 with the JSON error, logged.
 * @example getRequestListener(app.fetch, { errorHandler: answerRequestError(logger) })
 */
export function answerRequestError(logger: Logger) {
  return (error: unknown): Response => {
    const requestId = randomUUID();
    const refused = error instanceof Error && error.name === 'RequestError';
    const status = refused ? 400 : 500;
    if (refused) logger.info({ reqId: requestId, status, reason: error.message }, 'request refused by the adapter');
    else logger.error({ reqId: requestId, err: error }, 'unhandled error before the application');
    return new Response(JSON.stringify({ error: { ...statusError(status, ''), requestId } }), {
      status,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Request-Id': requestId,
        Connection: 'close',
      },
    });
  };
}
