// Every Amazon Pay stand-in API request: the AMZN-PAY-RSASSA-PSS signature, idempotency and the JSON body.
import { constants as cryptoConstants, createHash, verify } from 'node:crypto';
import type { Context, Next } from 'hono';
import { isRecord } from '#devtools/standins/shared';
import { ALGORITHMS, type AmazonPayState, type ApiContext } from './state';
import { amazonError, fromAmazonTime } from './wire';

/** Every API request: the signature, injected failures, the raw body and environment, Idempotency-Key replay. */
export async function checkRequest(state: AmazonPayState, c: ApiContext, next: Next): Promise<Response | void> {
  const rawBody = c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.text();
  const problem = checkSignature(state, c, rawBody);
  if (problem) return amazonError(c, problem.status, problem.reasonCode, problem.message);
  const failure = state.failures.findIndex((f) => !f.path || f.path.test(new URL(c.req.url).pathname));
  if (failure >= 0) {
    const [f] = state.failures.splice(failure, 1);
    const code =
      f!.status === 429
        ? 'TooManyRequests'
        : f!.status === 503
          ? 'ServiceUnavailable'
          : f!.status >= 500
            ? 'InternalServerError'
            : 'InvalidRequest';
    return amazonError(c, f!.status, code, 'Injected failure (stand-in test control).');
  }
  const pathname = new URL(c.req.url).pathname;
  c.set('rawBody', rawBody);
  c.set(
    'environment',
    pathname.startsWith('/live/') || state.options.publicKeyId.toUpperCase().startsWith('LIVE') ? 'Live' : 'Sandbox',
  );
  const key = c.req.header('x-amz-pay-idempotency-key');
  if (c.req.method === 'POST' && key !== undefined) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(key))
      return amazonError(
        c,
        400,
        'InvalidHeaderValue',
        'x-amz-pay-idempotency-key must be 1-32 characters of A-Z a-z 0-9 - _.',
      );
    const fingerprint = `${c.req.method} ${pathname.replace(/^\/(live|sandbox)/, '')}\n${rawBody}`;
    const saved = state.idempotency.get(key);
    if (saved) {
      if (saved.fingerprint !== fingerprint)
        return amazonError(
          c,
          400,
          'DuplicateIdempotencyKey',
          'The idempotency key was already used for a different request.',
        );
      return c.json(saved.body as object, saved.status as 200);
    }
    await next();
    if (c.res.status < 500)
      state.idempotency.set(key, {
        fingerprint,
        status: c.res.status,
        body: await c.res
          .clone()
          .json()
          .catch(() => null),
      });
    return;
  }
  await next();
}

/** Amazon's canonical request, rebuilt from what arrived, and the RSASSA-PSS check against it. */
function checkSignature(
  state: AmazonPayState,
  c: Context,
  rawBody: string,
): { status: 400 | 401; reasonCode: string; message: string } | null {
  const authorization = c.req.header('authorization');
  if (!authorization)
    return { status: 400, reasonCode: 'MissingHeader', message: 'The authorization header is missing.' };
  const m =
    /^(AMZN-PAY-RSASSA-PSS(?:-V2)?) PublicKeyId=([^,\s]+), ?SignedHeaders=([^,\s]+), ?Signature=([A-Za-z0-9+/=]+)$/.exec(
      authorization.trim(),
    );
  if (!m)
    return { status: 401, reasonCode: 'InvalidRequestSignature', message: 'The authorization header is malformed.' };
  const [, algorithm, publicKeyId, signedHeadersRaw, signature] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (publicKeyId !== state.options.publicKeyId)
    return { status: 401, reasonCode: 'InvalidRequestSignature', message: 'Unknown PublicKeyId.' };
  const signed = signedHeadersRaw.split(';').map((h) => h.toLowerCase());
  for (const required of ['x-amz-pay-date', 'x-amz-pay-host', 'x-amz-pay-region']) {
    if (!c.req.header(required))
      return { status: 400, reasonCode: 'MissingHeader', message: `The ${required} header is missing.` };
    if (!signed.includes(required))
      return { status: 401, reasonCode: 'InvalidRequestSignature', message: `${required} must be signed.` };
  }
  // Every x-amz-pay-* header that arrived must be covered by the signature (e.g. the state.idempotency key).
  for (const [name] of Object.entries(c.req.header())) {
    if (name.toLowerCase().startsWith('x-amz-pay-') && !signed.includes(name.toLowerCase())) {
      return { status: 401, reasonCode: 'InvalidRequestSignature', message: `${name} is not signed.` };
    }
  }
  if (c.req.header('x-amz-pay-region') !== 'jp')
    return { status: 400, reasonCode: 'InvalidHeaderValue', message: 'x-amz-pay-region must be jp for this endpoint.' };
  const payHost = c.req.header('x-amz-pay-host');
  if (payHost !== state.apiHost && payHost !== c.req.header('host'))
    return { status: 400, reasonCode: 'InvalidHeaderValue', message: `x-amz-pay-host must be ${state.apiHost}.` };
  const date = Date.parse(fromAmazonTime(c.req.header('x-amz-pay-date')!));
  if (Number.isNaN(date) || Math.abs(Date.now() - date) > state.skewMs)
    return {
      status: 400,
      reasonCode: 'InvalidHeaderValue',
      message: 'x-amz-pay-date is missing, malformed or too far from the current time.',
    };
  const url = new URL(c.req.url);
  const query = [...url.searchParams.keys()]
    .sort()
    .map((k) => `${k}=${encodeURIComponent(url.searchParams.get(k)!)}`)
    .join('&');
  let canonical = `${c.req.method}\n${url.pathname}\n${query}\n`;
  for (const name of signed) {
    const value = c.req.header(name);
    if (value === undefined)
      return { status: 401, reasonCode: 'InvalidRequestSignature', message: `Signed header ${name} is missing.` };
    canonical += `${name}:${value}\n`;
  }
  canonical += `\n${signedHeadersRaw}\n${createHash('sha256').update(rawBody).digest('hex')}`;
  const stringToSign = `${algorithm}\n${createHash('sha256').update(canonical).digest('hex')}`;
  let ok = false;
  try {
    ok = verify(
      'sha256',
      Buffer.from(stringToSign, 'utf8'),
      {
        key: state.merchantKey,
        padding: cryptoConstants.RSA_PKCS1_PSS_PADDING,
        saltLength: ALGORITHMS[algorithm]!,
      },
      Buffer.from(signature, 'base64'),
    );
  } catch {
    ok = false;
  }
  return ok
    ? null
    : {
        status: 401,
        reasonCode: 'InvalidRequestSignature',
        message: 'The request signature we calculated does not match the signature you provided.',
      };
}

/** The request's JSON body when it is an object. */
export function bodyOf(c: ApiContext): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(c.get('rawBody') || 'null');
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** POST /v2/checkoutSessions: validates the session our adapter asks for and opens it. */
