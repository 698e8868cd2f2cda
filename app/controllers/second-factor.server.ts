// The second factor on /mypage/settings/security: set up TOTP with a QR code, backup codes shown once,
// regenerate them, turn it off (the code step of /auth/sign_in is app/controllers/sign-in/second-factor.server.ts).
// Every check is better-auth's own endpoint through callAuth, so its rate limits and cookies apply as for the API.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { callAuth, cookieHeaders, type AuthCallResult } from '~/controllers/auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { authErrorMessage, isStaffRole, staffAccessOf } from '#modules/identity';
import {
  BACKUP_CODE_COUNT,
  hasPassword,
  isTotpCode,
  manualEntryKey,
  normaliseBackupCode,
  normaliseOtp,
  pendingTotpUri,
  remainingBackupCodes,
  secondFactorOf,
} from '#modules/identity/server';

export const SECURITY_PATH = '/mypage/settings/security';

export type SecurityPageData =
  | { signedIn: false }
  | {
      signedIn: true;
      enabled: boolean;
      hasPassword: boolean;
      /** A setup waiting for its first code: the QR code (an SVG data URL) and the key for typing by hand. */
      pending: { qrDataUrl: string; manualKey: string } | null;
      backupCodesLeft: number;
      /** Arrived from a staff page (`?required=staff`), or a staff account without TOTP. */
      staffNotice: boolean;
      /** A staff account whose second factor is on: the set-up ends with 「管理画面へ」. */
      adminLink: boolean;
      backupCodeCount: number;
    };

export type SecurityActionData =
  | { ok: false; intent: string; message: string }
  | { ok: true; intent: string; message: string; backupCodes?: string[] };

/** A TOTP code that is not 6 digits, on the security page and the sign-in code step alike. */
export const CODE_FORMAT_MESSAGE = '認証アプリに表示されている6桁の数字を入力してください。';
const PASSWORD_MISSING_MESSAGE = '確認のため、パスワードを入力してください。';

/** @example export const loader = ({ request, context }) => securityPageLoader(context.get(shopRequestContext), request) */
export async function securityPageLoader(shop: ShopRequest, request: Request): Promise<SecurityPageData> {
  if (!shop.member) return { signedIn: false };
  const { db, auth, config } = shop.services;
  const memberId = shop.member.id;
  const [state, password] = await Promise.all([secondFactorOf(db, memberId), hasPassword(db, memberId)]);
  let pending: { qrDataUrl: string; manualKey: string } | null = null;
  if (state.pendingSetup) {
    const uri = await pendingTotpUri(auth, db, { memberId, email: shop.member.email, issuer: config.SITE_NAME });
    if (uri) pending = { qrDataUrl: await qrDataUrlOf(uri), manualKey: manualEntryKey(uri) };
  }
  const backupCodesLeft = state.enabled ? (await remainingBackupCodes(auth, memberId)).length : 0;
  const staff = isStaffRole(shop.member.role);
  const asked = new URL(request.url).searchParams.get('required') === 'staff';
  return {
    signedIn: true,
    enabled: state.enabled,
    hasPassword: password,
    pending,
    backupCodesLeft,
    staffNotice:
      (asked || staff) && staffAccessOf({ role: shop.member.role, twoFactorEnabled: state.enabled }) !== 'ok',
    adminLink: staffAccessOf({ role: shop.member.role, twoFactorEnabled: state.enabled }) === 'ok',
    backupCodeCount: BACKUP_CODE_COUNT,
  };
}

/** The QR code of an otpauth:// URI as an SVG data URL (drawn on the server; img-src allows data:). */
export async function qrDataUrlOf(uri: string): Promise<string> {
  // Loaded on the set-up page only, not by every instance at start (issue 17's memory).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

const refused = (intent: string, message: string, status: number) =>
  data<SecurityActionData>({ ok: false, intent, message }, { status });

const refusedBy = (intent: string, result: AuthCallResult) =>
  refused(intent, authErrorMessage(result.code, result.status), result.status === 429 ? 429 : 400);

/**
 * The security page's forms, by `intent`: `start` (password → a pending setup: the loader shows the
 * QR code), `confirm` (code → TOTP on, the backup codes answered once), `regenerate` (password → new
 * backup codes, answered once), `disable` (password and a current code or a backup code).
 */
export async function securityPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) return refused('', 'ログインしてください。', 401);
  const form = await readFormFields(request);
  if (!form) return refused('', UNREADABLE_FORM_MESSAGE, 400);
  const intent = form.intent ?? '';
  const password = form.password ?? '';
  const { auth } = shop.services;
  const memberId = shop.member.id;

  switch (intent) {
    case 'start': {
      if (!password) return refused(intent, PASSWORD_MISSING_MESSAGE, 400);
      const result = await callAuth(shop, request, '/two-factor/enable', {
        password,
        issuer: shop.services.config.SITE_NAME,
      });
      if (!result.ok) return refusedBy(intent, result);
      return data<SecurityActionData>(
        { ok: true, intent, message: '認証アプリでQRコードを読み取り、表示された6桁のコードを入力してください。' },
        { headers: cookieHeaders(result.setCookies) },
      );
    }
    case 'confirm': {
      const code = normaliseOtp(form.code);
      if (!isTotpCode(code)) return refused(intent, CODE_FORMAT_MESSAGE, 400);
      const result = await callAuth(shop, request, '/two-factor/verify-totp', { code });
      if (!result.ok) return refusedBy(intent, result);
      // better-auth replaced the session when it turned the second factor on: the new cookie goes back.
      return data<SecurityActionData>(
        {
          ok: true,
          intent,
          message: '二段階認証を有効にしました。次回のログインから認証コードの入力が必要です。',
          backupCodes: await remainingBackupCodes(auth, memberId),
        },
        { headers: cookieHeaders(result.setCookies) },
      );
    }
    case 'regenerate': {
      if (!password) return refused(intent, PASSWORD_MISSING_MESSAGE, 400);
      const result = await callAuth(shop, request, '/two-factor/generate-backup-codes', { password });
      if (!result.ok) return refusedBy(intent, result);
      return data<SecurityActionData>({
        ok: true,
        intent,
        message: '新しいバックアップコードを発行しました。以前のコードは使えなくなりました。',
        backupCodes: await remainingBackupCodes(auth, memberId),
      });
    }
    case 'disable': {
      if (!password) return refused(intent, PASSWORD_MISSING_MESSAGE, 400);
      const code = normaliseOtp(form.code);
      // A member who lost the phone confirms with a backup code instead (which it uses up).
      const check = isTotpCode(code)
        ? await callAuth(shop, request, '/two-factor/verify-totp', { code })
        : code.length === 10
          ? await callAuth(shop, request, '/two-factor/verify-backup-code', { code: normaliseBackupCode(form.code) })
          : null;
      if (!check) return refused(intent, '認証アプリの6桁のコード、またはバックアップコードを入力してください。', 400);
      if (!check.ok) return refusedBy(intent, check);
      const result = await callAuth(shop, request, '/two-factor/disable', { password });
      if (!result.ok) return refusedBy(intent, result);
      return data<SecurityActionData>(
        { ok: true, intent, message: '二段階認証を無効にしました。' },
        { headers: cookieHeaders(result.setCookies) },
      );
    }
    default:
      return refused(intent, '操作を読み取れませんでした。ページを再読み込みしてください。', 400);
  }
}
