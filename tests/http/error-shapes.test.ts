// D4: every error answer has the body of docs/api.md, { error: { code, message } } with a Japanese message —
// also those that never reach Hono (a URL over Node's 16 KiB header limit, every malformed request the
// HTTP parser refuses, sent here over raw sockets), better-auth's unknown paths and its own errors, and a
// byte range past a file's end.
import net from 'node:net';
import { describe, it, expect } from 'vitest';
import { shopUrl } from '#tests/http';

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

async function expectShopError(response: Response, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  expect(body.error).toBeTypeOf('object');
  expect(body.error!.code).toBeTypeOf('string');
  expect(String(body.error!.message)).toMatch(JAPANESE);
  if (code) expect(body.error!.code).toBe(code);
  return body;
}

describe('error answers', () => {
  it('answers a URL over 16 KiB with 431 and the JSON error, not an empty body', async () => {
    const response = await fetch(`${shopUrl()}/gacha/pokemon?q=${'a'.repeat(17 * 1024)}`);
    await expectShopError(response, 431, 'REQUEST_HEADERS_TOO_LARGE');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // The server still answers afterwards (the refused connection was closed, not the server).
    expect((await fetch(`${shopUrl()}/api/health`)).status).toBe(200);
  });

  it('answers headers over 16 KiB the same way', async () => {
    const response = await fetch(`${shopUrl()}/`, { headers: { 'x-padding': 'b'.repeat(17 * 1024) } });
    await expectShopError(response, 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  it('answers unknown /api/auth paths with 404 and the JSON error', async () => {
    await expectShopError(await fetch(`${shopUrl()}/api/auth/no-such-endpoint`), 404, 'NOT_FOUND');
    await expectShopError(
      await fetch(`${shopUrl()}/api/auth/no-such-endpoint`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: shopUrl() },
        body: '{}',
      }),
      404,
      'NOT_FOUND',
    );
    // A known path with the wrong method is unknown to better-auth too.
    await expectShopError(await fetch(`${shopUrl()}/api/auth/sign-in/email`), 404, 'NOT_FOUND');
  });

  it("keeps better-auth's own error fields and adds the shop's error with a Japanese message", async () => {
    const response = await fetch(`${shopUrl()}/api/auth/one-time-token/generate`);
    const body = (await expectShopError(response, 401)) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('answers a byte range past the end of a file with 416 and the JSON error', async () => {
    const response = await fetch(`${shopUrl()}/favicon.svg`, {
      headers: { range: 'bytes=99999999-', 'accept-encoding': 'identity' },
    });
    await expectShopError(response, 416, 'RANGE_NOT_SATISFIABLE');
    expect(response.headers.get('content-range')).toMatch(/^bytes \*\/\d+$/);
  });

  it('answers other refusals in the same shape', async () => {
    await expectShopError(
      await fetch(`${shopUrl()}/api/v1/gachas`, { method: 'DELETE', headers: { origin: shopUrl() } }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    await expectShopError(await fetch(`${shopUrl()}/api/no-such-api`), 404, 'NOT_FOUND');
    const big = await fetch(`${shopUrl()}/api/v1/me/age-declaration`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: shopUrl() },
      body: JSON.stringify({ padding: 'x'.repeat(300 * 1024) }),
    });
    await expectShopError(big, 413, 'REQUEST_TOO_LARGE');
  });
});

/** One raw answer: the status line, the headers (lower-cased names) and the body, de-chunked. */
interface RawAnswer {
  statusLine: string;
  headers: Map<string, string>;
  body: string;
}

/** Sends bytes as they are (no client library tidies them) and reads until the shop closes the connection. */
function sendRaw(bytes: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(shopUrl());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split < 0 ? raw : raw.slice(0, split)).split('\r\n');
      const headers = new Map(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).trim().toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let body = split < 0 ? '' : raw.slice(split + 4);
      if (headers.get('transfer-encoding') === 'chunked') {
        let decoded = '';
        for (let rest = body; ;) {
          const end = rest.indexOf('\r\n');
          const size = parseInt(rest.slice(0, end), 16);
          if (!size) break;
          decoded += rest.slice(end + 2, end + 2 + size);
          rest = rest.slice(end + 2 + size + 2);
        }
        body = decoded;
      }
      resolve({ statusLine, headers, body });
    });
    socket.write(bytes, 'latin1');
  });
}

describe("the HTTP parser's own refusals, over raw sockets", () => {
  // Each is refused before the application could answer: Node's parser (clientError), its Expect and
  // CONNECT handling, or the adapter that makes a Request (no Host, no URL). Each answer has a status
  // line, a content type and the JSON error; the connection is closed after it.
  const cases: [string, string, number, string][] = [
    ['a request line without a version', 'GET /\r\n\r\n', 400, 'BAD_REQUEST'],
    ['a request line without a version, with a Host', 'GET /\r\nHost: localhost\r\n\r\n', 400, 'BAD_REQUEST'],
    ['garbage for a request line', 'HELLO\r\n\r\n', 400, 'BAD_REQUEST'],
    ['an invalid method', 'G@T / HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'BAD_REQUEST'],
    ['HTTP/2.0 in a text request line', 'GET / HTTP/2.0\r\nHost: localhost\r\n\r\n', 400, 'BAD_REQUEST'],
    ['an unknown version', 'GET / HTTP/1.2\r\nHost: localhost\r\n\r\n', 400, 'BAD_REQUEST'],
    ['a space in a header name', 'GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: y\r\n\r\n', 400, 'BAD_REQUEST'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nnocolon\r\n\r\n', 400, 'BAD_REQUEST'],
    ['a NUL in a header value', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\x00b\r\n\r\n', 400, 'BAD_REQUEST'],
    ['a control character in the path', 'GET /a\x01b HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'BAD_REQUEST'],
    ['an HTTP/1.1 request without Host', 'GET / HTTP/1.1\r\n\r\n', 400, 'BAD_REQUEST'],
    ['an HTTP/1.0 request without Host', 'GET / HTTP/1.0\r\n\r\n', 400, 'BAD_REQUEST'],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      'a Content-Length that is not a number',
      'POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n',
      400,
      'BAD_REQUEST',
    ],
    [
      'Content-Length beside chunked Transfer-Encoding',
      'POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'BAD_REQUEST',
    ],
    [
      'a chunk size that is not hexadecimal',
      'POST /contact HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      400,
      'BAD_REQUEST',
    ],
    [
      'a URL over 16 KiB',
      `GET /${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      431,
      'REQUEST_HEADERS_TOO_LARGE',
    ],
    [
      'CONNECT (the shop is no proxy)',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      405,
      'METHOD_NOT_ALLOWED',
    ],
    [
      'an Expect other than 100-continue',
      'POST /api/v1/gachas HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n{}',
      417,
      'EXPECTATION_FAILED',
    ],
  ];

  it.each(cases)('answers %s with its status and the JSON error', async (_label, bytes, status, code) => {
    const answer = await sendRaw(bytes);
    expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} \\S`));
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.body.length).toBeGreaterThan(0);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string; requestId: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(JAPANESE);
    expect(body.error.requestId).toBe(answer.headers.get('x-request-id'));
  });

  it('still answers well-formed requests afterwards', async () => {
    const answer = await sendRaw('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 200 /);
  });
});
