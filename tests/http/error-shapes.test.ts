// D4: every error answer has the body of api.md, { error: { code, message } } with a Japanese message —
// also those that never reach Hono (a URL over Node's 16 KiB header limit), better-auth's unknown
// paths and its own errors, and a byte range past a file's end.
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
