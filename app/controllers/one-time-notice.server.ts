// A one-time notice carried to the next page by a short cookie, read once and cleared by that page
// (「退会手続きが完了しました」 on the top page after 退会).

const NOTICE_COOKIE = 'oripa_notice';

/** The notices a page can carry to the next, and their words. */
export const ONE_TIME_NOTICES = {
  'account-deleted': '退会手続きが完了しました。ご利用ありがとうございました。',
} as const;
export type OneTimeNotice = keyof typeof ONE_TIME_NOTICES;

/** The Set-Cookie value that carries `notice` to the next page (two minutes at most). */
export function setOneTimeNotice(notice: OneTimeNotice): string {
  return `${NOTICE_COOKIE}=${notice}; Path=/; Max-Age=120; HttpOnly; Secure; SameSite=Lax`;
}

/**
 * The notice this request carries (its words), and the header that clears it, or nulls.
 * @example const { message, clear } = takeOneTimeNotice(request); return data({ notice: message }, clear ? { headers: { 'Set-Cookie': clear } } : undefined)
 */
export function takeOneTimeNotice(request: Request): { message: string | null; clear: string | null } {
  const cookie = request.headers.get('cookie') ?? '';
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${NOTICE_COOKIE}=([a-z-]+)`));
  if (!match) return { message: null, clear: null };
  const message = ONE_TIME_NOTICES[match[1] as OneTimeNotice] ?? null;
  return { message, clear: `${NOTICE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax` };
}
