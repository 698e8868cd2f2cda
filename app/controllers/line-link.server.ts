// /app/checkout/linelink: links the member's LINE account (LINE Login through better-auth), then sends
// the web view back to the app. The first visit starts the flow; LINE's consent comes back through
// /api/auth/callback/line to `?done=1` (linked) or `?error=…` (refused, canceled, already someone's).
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { appReturnUrl } from './app-handoff.server';
import { LineLinkError, lineLinkErrorMessage, linkedLineAccount, startLineLink } from '#modules/identity/server';
import { describeRefusal } from '#modules/refusals';

export type LineLinkPageData = { kind: 'message'; title: string; message: string; backHref: string };

const CALLBACK = '/app/checkout/linelink?done=1';
const ERROR_CALLBACK = '/app/checkout/linelink';

/** The loader of /app/checkout/linelink for a signed-in member. */
export async function lineLinkLoader(shop: ShopRequest, request: Request, canceledHref: string) {
  const url = new URL(request.url);
  const appUrl = shop.services.config.APP_RETURN_URL;
  const message = (title: string, text: string, backHref: string, status = 200) =>
    data<LineLinkPageData>(
      { kind: 'message', title, message: text, backHref },
      { status, headers: { 'Cache-Control': 'no-store' } },
    );
  if (url.searchParams.get('done') === '1') {
    const linked = await linkedLineAccount(shop.services.db, shop.member!.id);
    if (linked)
      return message(
        'LINEアカウントを連携しました',
        'アプリに戻ってお手続きを続けてください。',
        appReturnUrl(appUrl, { status: 'linked', provider: 'line' }),
      );
  }
  const error = url.searchParams.get('error');
  if (error !== null) {
    return message(
      'LINE連携できませんでした',
      lineLinkErrorMessage(error),
      appReturnUrl(appUrl, { status: 'failed', provider: 'line', error: error.slice(0, 60) }),
      400,
    );
  }
  try {
    const { url: lineUrl, setCookies } = await startLineLink(shop.services.auth, {
      headers: request.headers,
      callbackURL: CALLBACK,
      errorCallbackURL: ERROR_CALLBACK,
    });
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
    throw redirect(lineUrl, { headers });
  } catch (thrown) {
    if (thrown instanceof LineLinkError) {
      if (thrown.code === 'ALREADY_LINKED')
        return message(
          'LINEアカウントは連携済みです',
          'アプリに戻ってお手続きを続けてください。',
          appReturnUrl(appUrl, { status: 'linked', provider: 'line' }),
        );
      const { status, message: text } = describeRefusal(thrown.refusal);
      return message('LINE連携できませんでした', text, canceledHref, status >= 500 ? 503 : status);
    }
    throw thrown;
  }
}
