// Japanese messages for every sign-in error a member can meet: better-auth's codes and the
// specification's identity catalogue (section 8), each a stable English code mapped once.

export const AUTH_ERROR_MESSAGES: Record<string, string> = {
  // better-auth
  USER_ALREADY_EXISTS: 'このメールアドレスはすでに登録されています。ログインしてください。',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'このメールアドレスはすでに登録されています。ログインしてください。',
  INVALID_EMAIL_OR_PASSWORD: 'メールアドレスまたはパスワードが正しくありません。',
  INVALID_EMAIL: 'メールアドレスの形式が正しくありません。',
  INVALID_PASSWORD: 'パスワードが正しくありません。',
  PASSWORD_TOO_SHORT: 'パスワードが短すぎます。',
  PASSWORD_TOO_LONG: 'パスワードが長すぎます。',
  EMAIL_NOT_VERIFIED: 'メールアドレスの確認が済んでいません。届いたメールのリンクを開いてください。',
  FAILED_TO_CREATE_USER: '会員登録できませんでした。時間をおいてお試しください。',
  FAILED_TO_CREATE_SESSION: 'ログインできませんでした。時間をおいてお試しください。',
  USER_NOT_FOUND: 'アカウントが見つかりません。',
  BANNED_USER: 'このアカウントはご利用いただけません。お問い合わせください。',
  TOO_MANY_REQUESTS: '試行回数が多すぎます。しばらく時間をおいてからお試しください。',
  // the shop's abuse guard (abuse.server.ts)
  CAPTCHA_REQUIRED: '短時間に何度も失敗したため、確認のためチェックを完了してください。',
  CAPTCHA_INVALID: '確認できませんでした。もう一度チェックを完了してからお試しください。',
  // the identity catalogue of the specification
  'auth/email-already-in-use': 'このメールアドレスはすでに登録されています。',
  'auth/wrong-password': 'メールアドレスまたはパスワードが正しくありません。',
  'auth/user-not-found': 'アカウントが見つかりません。',
  'auth/too-many-requests': '試行回数が多すぎます。しばらく時間をおいてからお試しください。',
  'auth/expired-action-code': 'このリンクは有効期限が切れています。もう一度お手続きください。',
  'auth/requires-recent-login': '安全のため、もう一度ログインしてからお試しください。',
  'auth/password-does-not-meet-requirements': 'パスワードが条件を満たしていません。',
  'auth/multi-factor-auth-required': '追加の認証が必要です。',
  'auth/network-request-failed': '通信できませんでした。電波の良い場所でもう一度お試しください。',
  'auth/invalid-app-credential': '認証に失敗しました。もう一度お試しください。',
  'auth/missing-recaptcha-token': '確認のため、もう一度お試しください。',
  'auth/no-auth-event': 'ログイン処理を完了できませんでした。もう一度お試しください。',
  'auth/provider-already-linked': 'このアカウントはすでに連携されています。',
  'auth/no-such-provider': 'このアカウントは連携されていません。',
  'auth/user-mismatch': '別のアカウントで認証されました。同じアカウントでお試しください。',
  'auth/popup-blocked': 'ポップアップがブロックされました。ブラウザの設定をご確認ください。',
  'auth/popup-closed-by-user': 'ログイン画面が閉じられました。もう一度お試しください。',
  'auth/cancelled-popup-request': 'ログイン画面が閉じられました。もう一度お試しください。',
  'auth/account-exists-with-different-credential':
    'このメールアドレスは別の方法で登録されています。その方法でログインしてください。',
  'auth/unauthorized-domain': 'このドメインからはログインできません。',
  'auth/web-storage-unsupported': 'ブラウザの設定でCookieとストレージを有効にしてください。',
};

export const GENERIC_AUTH_ERROR = 'うまく処理できませんでした。時間をおいてもう一度お試しください。';

/** @example authErrorMessage('INVALID_EMAIL_OR_PASSWORD') // 'メールアドレスまたはパスワードが正しくありません。' */
export function authErrorMessage(code: string | null | undefined, status?: number): string {
  if (status === 429) return AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS!;
  return (code && AUTH_ERROR_MESSAGES[code]) || GENERIC_AUTH_ERROR;
}
