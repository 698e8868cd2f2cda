// The identity module's refusal words (LINE link, staff access, account deletion): status and Japanese message.
import { COMMON_REFUSAL_WORDS, digits, type RefusalWords } from '#modules/kernel';
import type { LineLinkRefusalCode } from './line.server';
import type { StaffAccessRefusalCode } from './two-factor.server';
import type { AccountDeletionRefusalCode } from './account-deletion.server';

export const LINE_LINK_REFUSAL_WORDS: RefusalWords<LineLinkRefusalCode> = {
  UNAUTHENTICATED: COMMON_REFUSAL_WORDS.UNAUTHENTICATED,
  ALREADY_LINKED: { status: 409, message: 'LINEアカウントは連携済みです。' },
  INVALID_RETURN_URL: { status: 400, message: (d) => `戻り先のURLが正しくありません: ${String(d.url)}` },
  NOT_CONFIGURED: { status: 404, message: 'LINE連携は現在ご利用いただけません。' },
  LINK_FAILED: {
    status: 502,
    message: (d) =>
      d.status ? `LINE連携を開始できませんでした (${String(d.status)})` : 'LINE連携を開始できませんでした',
  },
};

export const STAFF_ACCESS_REFUSAL_WORDS: RefusalWords<StaffAccessRefusalCode> = {
  SECOND_FACTOR_REQUIRED: {
    status: 403,
    message:
      '運営スタッフの機能を使うには、二段階認証（認証アプリ）の設定が必要です。マイページの「二段階認証」から設定してください。',
  },
};

export const ACCOUNT_DELETION_REFUSAL_WORDS: RefusalWords<AccountDeletionRefusalCode> = {
  UNAUTHENTICATED: COMMON_REFUSAL_WORDS.UNAUTHENTICATED,
  DELETION_NOT_CONFIRMED: {
    status: 400,
    message: (d) => `確認のため「${String(d.phrase ?? '退会する')}」と入力してください。`,
  },
  PASSWORD_REQUIRED: { status: 400, message: '確認のため、パスワードを入力してください。' },
  WRONG_PASSWORD: { status: 401, message: 'パスワードが正しくありません。' },
  REAUTHENTICATION_REQUIRED: {
    status: 401,
    message: (d) =>
      `安全のため、もう一度ログインしてから${d.minutes ? `${digits(d.minutes)}分以内に` : ''}お手続きください。`,
  },
  REAUTH_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `試行回数が多すぎます。${d.retryAfterSeconds ? `${digits(d.retryAfterSeconds)}秒ほど` : 'しばらく'}時間をおいてからお試しください。`,
  },
};
