// The social sign-in providers as pages see them (no better-auth here): ids, Japanese names, and the
// nickname a provider's display name becomes. The better-auth side is social.server.ts.

/** better-auth's provider ids (the `accounts.provider_id` of a linked account), in the order shown. */
export const SOCIAL_PROVIDER_IDS = ['google', 'line', 'twitter', 'facebook', 'github'] as const;
export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

/** The name a member knows each provider by. */
export const SOCIAL_PROVIDER_NAMES: Record<SocialProviderId, string> = {
  google: 'Google',
  line: 'LINE',
  twitter: 'X（旧Twitter）',
  facebook: 'Facebook',
  github: 'GitHub',
};

/** @example isSocialProviderId('google') === true; isSocialProviderId('credential') === false */
export function isSocialProviderId(value: unknown): value is SocialProviderId {
  return typeof value === 'string' && (SOCIAL_PROVIDER_IDS as readonly string[]).includes(value);
}

/** @example socialSignInLabel('google') === 'Googleでログイン'; socialSignInLabel('line', 'sign-up') === 'LINEで登録' */
export function socialSignInLabel(id: SocialProviderId, mode: 'sign-in' | 'sign-up' = 'sign-in'): string {
  return `${SOCIAL_PROVIDER_NAMES[id]}で${mode === 'sign-in' ? 'ログイン' : '登録'}`;
}

/** The nickname a new member gets when the provider gives no usable name. */
export const DEFAULT_SOCIAL_NICKNAME = 'ステラ会員';

/**
 * A provider's display name made to follow the nickname rules (forms.ts): control characters and
 * markup brackets dropped, spaces collapsed, cut to 20 characters; the default when nothing is left.
 * @example nicknameFromProvider('  <b>Taro</b>\u0000 Yamada ') === 'bTaro/b Yamada'
 */
export function nicknameFromProvider(name: unknown): string {
  if (typeof name !== 'string') return DEFAULT_SOCIAL_NICKNAME;
  const cleaned = name
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f<>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  let cut = '';
  // 20 UTF-16 units (the schema's measure), never half a surrogate pair.
  for (const ch of cleaned) {
    if (cut.length + ch.length > 20) break;
    cut += ch;
  }
  cut = cut.trim();
  // Cleaned as the nickname rules ask (forms.ts: 1–20 characters, no control characters or markup).
  return cut || DEFAULT_SOCIAL_NICKNAME;
}

/** The domain of the stand-in email of a member whose provider gave none (RFC 6761 `.invalid`). */
export const PLACEHOLDER_EMAIL_SUFFIX = '.placeholder.invalid';

/** @example isPlaceholderEmail('u1@line.placeholder.invalid') === true */
export function isPlaceholderEmail(email: string): boolean {
  return email.toLowerCase().endsWith(PLACEHOLDER_EMAIL_SUFFIX);
}
