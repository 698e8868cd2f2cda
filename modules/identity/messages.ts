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
  // better-auth: linking and unlinking sign-in methods (/mypage/settings/unlink)
  FAILED_TO_UNLINK_LAST_ACCOUNT:
    'ログイン方法が1つだけのため解除できません。先にほかのログイン方法を連携するか、パスワードを設定してください。',
  ACCOUNT_NOT_FOUND: 'このアカウントは連携されていません。',
  SESSION_NOT_FRESH: '安全のため、もう一度ログインしてからお試しください。',
  SOCIAL_ACCOUNT_ALREADY_LINKED: 'このアカウントはすでに連携されています。',
  LINKED_ACCOUNT_ALREADY_EXISTS: 'このアカウントはすでに連携されています。',
  PROVIDER_NOT_FOUND: 'このログイン方法は現在ご利用いただけません。',
  UNAUTHENTICATED: 'ログインしてください。',
  LINK_FAILED: '連携できませんでした。時間をおいてもう一度お試しください。',
  // better-auth: the `error` its OAuth callback puts on errorCallbackURL (social sign-in and linking)
  access_denied: 'ログインがキャンセルされました。',
  account_not_linked:
    'このメールアドレスは別の方法で登録されています。その方法でログインしてから、マイページの「連携アカウント」（/mypage/settings/unlink）で連携してください。',
  account_already_linked_to_different_user: 'このアカウントは、すでに別の会員と連携されています。',
  unable_to_link_account: '連携できませんでした。ログインし直してからもう一度お試しください。',
  email_does_not_match: '連携できませんでした。ログインし直してからもう一度お試しください。',
  email_not_found: 'メールアドレスを取得できませんでした。ほかの方法でログインしてください。',
  email_not_verified: 'メールアドレスの確認が済んでいません。届いたメールのリンクを開いてください。',
  signup_disabled: 'この方法では新規登録できません。ほかの方法で登録してください。',
  unable_to_create_user: '会員登録できませんでした。時間をおいてお試しください。',
  unable_to_create_session: 'ログインできませんでした。時間をおいてお試しください。',
  unable_to_get_user_info: 'ログイン先から情報を受け取れませんでした。もう一度お試しください。',
  invalid_code: 'ログインの有効期限が切れました。もう一度お試しください。',
  no_code: 'ログインを完了できませんでした。もう一度お試しください。',
  state_mismatch: 'ログインの有効期限が切れたか、別の画面で操作されました。もう一度お試しください。',
  state_not_found: 'ログインの有効期限が切れたか、別の画面で操作されました。もう一度お試しください。',
  state_invalid: 'ログインの有効期限が切れたか、別の画面で操作されました。もう一度お試しください。',
  oauth_provider_not_found: 'このログイン方法は現在ご利用いただけません。',
  INVALID_NICKNAME: 'ニックネームが正しくありません。',
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
  'auth/user-mismatch': '別のアカウントで認証されました。今ログインしている会員のアカウントでお試しください。',
  'auth/popup-blocked': 'ポップアップがブロックされました。このままページを移動してログインします。',
  'auth/popup-closed-by-user': 'ログイン画面が閉じられました。もう一度お試しください。',
  'auth/cancelled-popup-request': '前のログイン画面は閉じました。新しい画面でお進みください。',
  'auth/account-exists-with-different-credential':
    'このメールアドレスは別の方法で登録されています。その方法でログインしてから、マイページの「連携アカウント」（/mypage/settings/unlink）で連携してください。',
  'auth/unauthorized-domain': 'このドメインからはログインできません。',
  'auth/web-storage-unsupported': 'ブラウザの設定でCookieとストレージを有効にしてください。',
};

export const GENERIC_AUTH_ERROR = 'うまく処理できませんでした。時間をおいてもう一度お試しください。';

/** @example authErrorMessage('INVALID_EMAIL_OR_PASSWORD') // 'メールアドレスまたはパスワードが正しくありません。' */
export function authErrorMessage(code: string | null | undefined, status?: number): string {
  if (status === 429) return AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS!;
  return (code && AUTH_ERROR_MESSAGES[code]) || GENERIC_AUTH_ERROR;
}
