// Cloudflare Turnstile's server-side check (siteverify): a widget token is worth something only
// once Cloudflare (or, in the sandbox, its local stand-in) says so. Tokens are single-use and live
// 300 seconds; siteverify answers a reused or expired one with success: false.
// developers.cloudflare.com/turnstile/get-started/server-side-validation/

export interface TurnstileVerification {
  success: boolean;
  /** Cloudflare's error codes (`invalid-input-response`, `timeout-or-duplicate`, …); ours: `missing-input-response`, `network-error`. */
  errorCodes: string[];
}

export interface TurnstileVerifierOptions {
  secretKey: string;
  /** https://challenges.cloudflare.com/turnstile/v0/siteverify, or the stand-in's (config.turnstile.verifyUrl). */
  verifyUrl: string;
  fetch?: typeof fetch;
  /** A siteverify call longer than this fails the check (no captcha passes while Cloudflare is unreachable). */
  timeoutMs: number;
}

/** Tokens are at most 2048 characters (Cloudflare); longer input is refused without a call. */
export const TURNSTILE_TOKEN_MAX_LENGTH = 2048;

/**
 * Asks siteverify whether `token` is a fresh, genuine widget answer for our secret.
 * @example const { success } = await verifyTurnstile(token, '192.0.2.1', { secretKey, verifyUrl, timeoutMs: 5000 })
 */
export async function verifyTurnstile(
  token: string | null | undefined,
  remoteIp: string | undefined,
  options: TurnstileVerifierOptions,
): Promise<TurnstileVerification> {
  if (!token || token.length > TURNSTILE_TOKEN_MAX_LENGTH)
    return { success: false, errorCodes: ['missing-input-response'] };
  const form = new URLSearchParams({ secret: options.secretKey, response: token });
  if (remoteIp && remoteIp !== 'unknown') form.set('remoteip', remoteIp);
  try {
    const response = await (options.fetch ?? fetch)(options.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const payload = (await response.json().catch(() => null)) as {
      success?: unknown;
      'error-codes'?: unknown;
    } | null;
    const errorCodes = Array.isArray(payload?.['error-codes']) ? payload['error-codes'].map(String) : [];
    if (!response.ok || !payload)
      return { success: false, errorCodes: errorCodes.length ? errorCodes : ['network-error'] };
    return { success: payload.success === true, errorCodes };
  } catch {
    return { success: false, errorCodes: ['network-error'] };
  }
}
