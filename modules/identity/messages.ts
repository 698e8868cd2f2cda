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
  BANNED_USER:
    'このアカウントは利用停止中のため、ログインできません。理由の区分と明細、異議申し立てのページへのリンクは、ご登録のメールアドレスにお送りしています。届いていない場合はお問い合わせください。',
  TOO_MANY_REQUESTS: '試行回数が多すぎます。しばらく時間をおいてからお試しください。',
  PASSWORD_DOES_NOT_MEET_REQUIREMENTS: 'パスワードが条件を満たしていません。表示されている条件をご確認ください。',
  SECOND_FACTOR_NEEDS_PASSWORD: '二段階認証を設定しているため、メールアドレスとパスワードでログインしてください。',
  INVALID_NICKNAME: 'このニックネームは使用できません。別のニックネームを入力してください。',
  INVALID_BIRTHDAY: '生年月日が正しくありません。',
  INVALID_TOKEN: 'このリンクはすでに使われたか、有効期限が切れています。もう一度お手続きください。',
  TOKEN_EXPIRED: 'このリンクは有効期限が切れています。もう一度お手続きください。',
  INVALID_USER: '別のアカウントでログインしています。ログアウトしてからお試しください。',
  EMAIL_MISMATCH: 'ログイン中のアカウントのメールアドレスと一致しません。',
  EMAIL_ALREADY_VERIFIED: 'このメールアドレスは確認済みです。',
  SESSION_EXPIRED: '安全のため、もう一度ログインしてからお試しください。',
  SESSION_NOT_FRESH: '安全のため、もう一度ログインしてからお試しください。',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'パスワードが設定されていません。',
  FAILED_TO_UPDATE_USER: '更新できませんでした。時間をおいてお試しください。',
  // better-auth's twoFactor plugin (TOTP and backup codes; two-factor.server.ts)
  INVALID_CODE: '認証コードが正しくありません。認証アプリに表示されている最新の6桁を入力してください。',
  INVALID_BACKUP_CODE: 'バックアップコードが正しくないか、すでに使用済みです。',
  INVALID_TWO_FACTOR_COOKIE: '認証の有効期限が切れました。お手数ですが、もう一度ログインしてください。',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE:
    '認証コードの入力回数が上限に達しました。もう一度ログインからやり直してください。',
  ACCOUNT_TEMPORARILY_LOCKED:
    '認証コードの誤りが続いたため、しばらくの間ログインできません。15分ほど時間をおいてお試しください。',
  OTP_HAS_EXPIRED: '認証コードの有効期限が切れました。新しいコードを入力してください。',
  OTP_NOT_ENABLED: 'この認証方法は有効になっていません。',
  OTP_NOT_CONFIGURED: 'この認証方法は利用できません。',
  TOTP_NOT_ENABLED: '二段階認証（認証アプリ）が設定されていません。',
  TOTP_NOT_CONFIGURED: '認証アプリによる二段階認証は利用できません。',
  TOTP_ALREADY_ENABLED: '二段階認証はすでに有効です。',
  TWO_FACTOR_NOT_ENABLED: '二段階認証が有効になっていません。',
  BACKUP_CODES_NOT_ENABLED: 'バックアップコードが発行されていません。',
  FAILED_TO_INVALIDATE_TWO_FACTOR_CHALLENGE: 'ログイン処理を完了できませんでした。もう一度ログインしてください。',
  UNAUTHORIZED: 'ログインしてください。',
  // better-auth's phoneNumber plugin and the shop's rules on it (phone.server.ts)
  INVALID_PHONE_NUMBER: '電話番号の形式が正しくありません。',
  PHONE_NUMBER_EXIST: 'この電話番号は別のアカウントで認証済みのため登録できません。',
  PHONE_NUMBER_NOT_EXIST: 'この電話番号で認証済みのアカウントはありません。メールアドレスでログインしてください。',
  INVALID_PHONE_NUMBER_OR_PASSWORD: '電話番号またはパスワードが正しくありません。',
  OTP_NOT_FOUND: '認証コードが見つかりません。もう一度送信してください。',
  OTP_EXPIRED: '認証コードの有効期限が切れました。もう一度送信してください。',
  INVALID_OTP: '認証コードが正しくありません。',
  TOO_MANY_ATTEMPTS: '認証コードの入力回数が上限に達したため、このコードは無効になりました。もう一度送信してください。',
  PHONE_NUMBER_NOT_VERIFIED: '電話番号の認証が済んでいません。',
  PHONE_NUMBER_PENDING_VERIFICATION: '電話番号の認証が済んでいません。',
  PHONE_NUMBER_CANNOT_BE_UPDATED: '電話番号はSMSの認証コードで確認してから変更してください。',
  PHONE_NUMBER_CANNOT_BE_SET: '電話番号はSMSの認証コードで確認してから登録してください。',
  SEND_OTP_NOT_IMPLEMENTED: 'SMSを送信できません。時間をおいてお試しください。',
  UNEXPECTED_ERROR: 'うまく処理できませんでした。時間をおいてもう一度お試しください。',
  PHONE_CODE_COOLDOWN: '認証コードを送信したばかりです。しばらく待ってから再送信してください。',
  // the shop's abuse guard (abuse.server.ts)
  CAPTCHA_REQUIRED: '短時間に何度も失敗したため、確認のためチェックを完了してください。',
  CAPTCHA_INVALID: '確認できませんでした。もう一度チェックを完了してからお試しください。',
  // better-auth: linking and unlinking sign-in methods (/mypage/settings/unlink)
  FAILED_TO_UNLINK_LAST_ACCOUNT:
    'ログイン方法が1つだけのため解除できません。先にほかのログイン方法を連携するか、パスワードを設定してください。',
  ACCOUNT_NOT_FOUND: 'このアカウントは連携されていません。',
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
  // the identity catalogue of the specification
  'auth/email-already-in-use': 'このメールアドレスはすでに登録されています。',
  'auth/wrong-password': 'メールアドレスまたはパスワードが正しくありません。',
  'auth/user-not-found': 'アカウントが見つかりません。',
  'auth/too-many-requests': '試行回数が多すぎます。しばらく時間をおいてからお試しください。',
  'auth/expired-action-code': 'このリンクは有効期限が切れています。もう一度お手続きください。',
  'auth/requires-recent-login': '安全のため、もう一度ログインしてからお試しください。',
  'auth/password-does-not-meet-requirements': 'パスワードが条件を満たしていません。',
  'auth/multi-factor-auth-required': '追加の認証が必要です。認証アプリの6桁のコードを入力してください。',
  'auth/missing-multi-factor-info': '二段階認証の情報が見つかりません。もう一度ログインしてください。',
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
  'auth/unsupported-password-policy-schema-version':
    'パスワードの条件を読み込めませんでした。ページを再読み込みしてください。',
  'auth/internal-error': 'うまく処理できませんでした。時間をおいてもう一度お試しください。',
  'auth/argument-error': '入力内容が正しくありません。もう一度お試しください。',
  'auth/invalid-user-token': 'ログインの有効期限が切れました。もう一度ログインしてください。',
  'auth/tenant-id-mismatch': 'ログイン情報が一致しません。もう一度ログインしてください。',
  'auth/auth-domain-config-required': 'ログイン機能の設定に問題があります。お問い合わせください。',
  'auth/invalid-api-key': 'ログイン機能の設定に問題があります。お問い合わせください。',
  'auth/invalid-emulator-scheme': 'ログイン機能の設定に問題があります。お問い合わせください。',
  'auth/emulator-config-failed': 'ログイン機能の設定に問題があります。お問い合わせください。',
  'auth/operation-not-supported-in-this-environment':
    'このブラウザではこの方法でログインできません。別のブラウザか別のログイン方法をお試しください。',
  'auth/already-initialized': 'ページを再読み込みしてからもう一度お試しください。',
};

export const GENERIC_AUTH_ERROR = 'うまく処理できませんでした。時間をおいてもう一度お試しください。';

/**
 * A wrong SMS code, with the tries this code has left (none: the code is void, send a new one).
 * @example wrongPhoneCodeMessage(3) // '認証コードが正しくありません（残り3回）'
 */
export function wrongPhoneCodeMessage(attemptsLeft: number | null | undefined): string {
  if (attemptsLeft === null || attemptsLeft === undefined) return AUTH_ERROR_MESSAGES.INVALID_OTP!;
  if (attemptsLeft <= 0) return AUTH_ERROR_MESSAGES.TOO_MANY_ATTEMPTS!;
  return `認証コードが正しくありません（残り${attemptsLeft}回）`;
}

/** @example phoneCodeCooldownMessage(42) // 'あと42秒で認証コードを再送信できます。' */
export function phoneCodeCooldownMessage(seconds: number): string {
  return `あと${Math.max(1, Math.ceil(seconds))}秒で認証コードを再送信できます。`;
}

/** @example authErrorMessage('INVALID_EMAIL_OR_PASSWORD') // 'メールアドレスまたはパスワードが正しくありません。' */
export function authErrorMessage(code: string | null | undefined, status?: number): string {
  if (status === 429 && code !== 'PHONE_CODE_COOLDOWN') return AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS!;
  return (code && AUTH_ERROR_MESSAGES[code]) || GENERIC_AUTH_ERROR;
}
