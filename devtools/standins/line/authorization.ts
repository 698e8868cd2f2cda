// The LINE stand-in's authorization page: the request checked as LINE does, then the member's choice.
import type { Context } from 'hono';
import {
  type AuthorizationRequest,
  CODE_TTL_MS,
  KNOWN_SCOPES,
  type LineState,
  newLineUserId,
  redirectUriAllowed,
  sweep,
  token,
} from './state';

/** GET /oauth2/v2.1/authorize: checks the request as LINE does, then the consent page (bad client or callback: an error page, no redirect). */
export function showAuthorization(state: LineState, c: Context): Response {
  sweep(state);
  const q = c.req.query();
  // Bad client or callback URL: LINE shows an error page and does not redirect.
  if (q.client_id !== state.options.channelId) return errorPage(c, 'client_id が正しくありません。');
  if (!q.redirect_uri || !redirectUriAllowed(state, q.redirect_uri))
    return errorPage(c, 'redirect_uri がチャネルに登録されたコールバックURLと一致しません。');
  const back = (error: string, description: string) => {
    const target = new URL(q.redirect_uri!);
    target.searchParams.set('error', error);
    target.searchParams.set('error_description', description);
    if (q.state) target.searchParams.set('state', q.state);
    return c.redirect(target.toString(), 302);
  };
  if (q.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
  if (!q.state) return back('invalid_request', 'state is required');
  const scopes = (q.scope ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => !KNOWN_SCOPES.has(scope)))
    return back('invalid_scope', 'scope must be profile, openid and/or email');
  if (scopes.includes('email') && !scopes.includes('openid')) return back('invalid_scope', 'email requires openid');
  if (q.code_challenge !== undefined || q.code_challenge_method !== undefined) {
    if (q.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
    if (!q.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
      return back('invalid_request', 'invalid code_challenge');
  }
  const request: AuthorizationRequest = {
    id: token(24),
    redirectUri: q.redirect_uri,
    state: q.state,
    scopes,
    nonce: q.nonce || undefined,
    codeChallenge: q.code_challenge || undefined,
    user: { ...state.current },
    expiresAt: Date.now() + CODE_TTL_MS,
  };
  state.pending.set(request.id, request);
  const asked = [
    scopes.includes('profile') ? 'プロフィール情報（表示名・プロフィール画像）' : null,
    scopes.includes('openid') ? 'ユーザー識別子（OpenID Connect）' : null,
    scopes.includes('email') ? 'メールアドレス' : null,
  ]
    .filter(Boolean)
    .map((line) => `<li>${escapeHtml(line!)}</li>`)
    .join('');
  return c.html(
    page(
      'LINEでログイン（テスト環境）',
      `<h1>LINEでログイン（テスト環境）</h1>
<p class="note">これはLINEログインのテスト用の代役です。本物のLINEには接続していません。</p>
<p><strong>${escapeHtml(request.user.name)}</strong> としてログインします。</p>
<p>このサービスが次の情報へのアクセスを求めています:</p>
<ul>${asked}</ul>
<form method="post" action="/oauth2/v2.1/authorize">
<input type="hidden" name="request_id" value="${escapeHtml(request.id)}">
<button type="submit" name="decision" value="allow">許可する</button>
<button type="submit" name="decision" value="deny">キャンセル</button>
<p class="note">別の人として試すとき: <button type="submit" name="decision" value="allow-new">新しいLINEユーザーとして許可する</button></p>
</form>`,
    ),
  );
}

/** POST /oauth2/v2.1/authorize: the member allows or denies; back to the callback with a code or an error. */
export async function decideAuthorization(state: LineState, c: Context): Promise<Response> {
  sweep(state);
  const form = await c.req.parseBody();
  const request = state.pending.get(String(form.request_id ?? ''));
  if (!request || request.expiresAt < Date.now())
    return errorPage(c, 'ログインの有効期限が切れました。最初からやり直してください。');
  state.pending.delete(request.id);
  const target = new URL(request.redirectUri);
  if (form.decision === 'allow' || form.decision === 'allow-new') {
    // allow-new: another LINE user than the preset one (several members can link LINE in one sandbox).
    const user =
      form.decision === 'allow-new' ? { ...request.user, sub: newLineUserId(), name: 'LINE花子' } : request.user;
    const code = token(20);
    state.codes.set(code, {
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      user,
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    target.searchParams.set('code', code);
    target.searchParams.set('state', request.state);
  } else {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'The resource owner denied the request.');
    target.searchParams.set('state', request.state);
  }
  return c.redirect(target.toString(), 302);
}

function errorPage(c: Context, message: string) {
  return c.html(page('エラー | LINEでログイン（テスト環境）', `<h1>エラー</h1><p>${escapeHtml(message)}</p>`), 400);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
  h1 { font-size: 1.25rem; color: #06c755; }
  .note { font-size: .85rem; color: #555; background: #f3f3f3; padding: .5rem; border-radius: .25rem; }
  form { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { flex: 1; padding: .75rem; font-size: 1rem; border-radius: .5rem; border: 1px solid #ccc; background: #fff; }
  button[value="allow"] { background: #06c755; color: #fff; border-color: #06c755; }
</style>
</head>
<body>
${body}
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}
