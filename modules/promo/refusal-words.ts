// 特典コード's refusal words, the members' and the operators': status and Japanese message of each code.
import { digits, jstText, type RefusalWords } from '#modules/kernel';
import { rankName } from '#modules/progression';
import type { PromoAdminRefusalCode, PromoRefusalCode } from './codes';

// 特典コード (docs/decisions/032): each refusal says why, so the member knows whether to retry.
export const PROMO_REFUSAL_WORDS: RefusalWords<PromoRefusalCode | PromoAdminRefusalCode> = {
  PROMO_CODE_INVALID: {
    status: 422,
    message: '特典コードは半角・全角の英数字4〜32文字で入力してください（ハイフンや空白は無視されます）。',
  },
  PROMO_CODE_UNKNOWN: { status: 404, message: 'この特典コードは見つかりません。入力に誤りがないかご確認ください。' },
  PROMO_CODE_NOT_YET_VALID: {
    status: 409,
    message: (d) =>
      d.startsAt ? `この特典コードは${jstText(String(d.startsAt))}から使えます。` : 'この特典コードはまだ使えません。',
  },
  PROMO_CODE_EXPIRED: {
    status: 410,
    message: (d) =>
      d.endsAt
        ? `この特典コードの有効期限（${jstText(String(d.endsAt))}まで）は過ぎています。`
        : 'この特典コードの有効期限は過ぎています。',
  },
  PROMO_CODE_USED_UP: { status: 409, message: 'この特典コードは利用上限に達したため、受付を終了しました。' },
  PROMO_CODE_ALREADY_REDEEMED: { status: 409, message: 'この特典コードはすでに利用済みです（おひとり様1回まで）。' },
  PROMO_CODE_NOT_NEW_MEMBER: {
    status: 403,
    message: (d) => `この特典コードは会員登録から${digits(d.days)}日以内の方のみご利用いただけます。`,
  },
  PROMO_CODE_RANK_TOO_LOW: {
    status: 403,
    message: (d) => `この特典コードは${rankName(Number(d.minRank))}ランク以上の方のみ利用できます。`,
  },
  PROMO_CODE_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `特典コードの入力回数が多すぎます。${digits(Math.max(1, Math.ceil(Number(d.retryAfterSeconds ?? 60) / 60)))}分ほど待ってからお試しください。`,
    headers: (d) => ({ 'Retry-After': String(Math.max(1, Number(d.retryAfterSeconds ?? 60))) }),
  },
  PROMO_CODE_TAKEN: { status: 409, message: (d) => `コード ${String(d.code)} はすでに登録されています。` },
  PROMO_CODE_NOT_FOUND: { status: 404, message: 'その特典コードは見つかりません。一覧を読み込み直してください。' },
};
