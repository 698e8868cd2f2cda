// Everything the LINE stand-in holds: its limits, issued codes and tokens, and the checks over them.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { LineStandinOptions, LineStandinUser } from './index';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 30 * 24 * 60 * 60;
export const ID_TOKEN_TTL_S = 60 * 60;
export const ISSUER = 'https://access.line.me';
export const KNOWN_SCOPES = new Set(['openid', 'profile', 'email']);

export interface AuthorizationRequest {
  id: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  user: LineStandinUser;
  expiresAt: number;
}

interface IssuedCode {
  redirectUri: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  user: LineStandinUser;
  expiresAt: number;
}

interface IssuedToken {
  user: LineStandinUser;
  scopes: string[];
  expiresAt: number;
  refreshToken: string;
}

/** Everything the stand-in holds, passed explicitly to each handler. */
export interface LineState {
  options: LineStandinOptions;
  /** Authorization requests shown on the consent page, by request id. */
  pending: Map<string, AuthorizationRequest>;
  codes: Map<string, IssuedCode>;
  accessTokens: Map<string, IssuedToken>;
  /** Refresh token → its access token. */
  refreshTokens: Map<string, string>;
  /** The LINE user who approves next. */
  current: LineStandinUser;
}

export type Route = {
  method: 'get' | 'post';
  path: string;
  handle: (state: LineState, c: Context) => Response | Promise<Response>;
};

export function redirectUriAllowed(state: LineState, redirectUri: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (!state.options.callbackUrls) return true;
  const withoutQuery = `${parsed.origin}${parsed.pathname}`;
  return state.options.callbackUrls.some((registered) => registered === redirectUri || registered === withoutQuery);
}

export function sweep(state: LineState): void {
  const now = Date.now();
  for (const [id, request] of state.pending) if (request.expiresAt < now) state.pending.delete(id);
  for (const [code, issued] of state.codes) if (issued.expiresAt < now) state.codes.delete(code);
}

/** A LINE user ID: 'U' followed by 32 hex digits. */
export function newLineUserId(): string {
  return `U${randomBytes(16).toString('hex')}`;
}

export function token(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
