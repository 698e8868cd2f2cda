// The login bonus's refusal words: status and Japanese message of each code (gathered by modules/refusals).
import { COMMON_REFUSAL_WORDS, jstText, type RefusalWords } from '#modules/kernel';
import type { LoginBonusRefusalCode } from './rules';

// The daily login bonus (docs/decisions/033): the day is Japan time, so the next claim opens at 0:00 JST.
export const LOGIN_BONUS_REFUSAL_WORDS: RefusalWords<LoginBonusRefusalCode> = {
  UNAUTHENTICATED: COMMON_REFUSAL_WORDS.UNAUTHENTICATED,
  LOGIN_BONUS_DISABLED: { status: 404, message: 'ログインボーナスは現在実施していません。' },
  LOGIN_BONUS_ALREADY_CLAIMED: {
    status: 409,
    message: (d) =>
      `本日のログインボーナスは受け取り済みです。${
        typeof d.nextClaimAt === 'string' ? `次回は${jstText(d.nextClaimAt)}（日本時間）から受け取れます。` : ''
      }`,
  },
  LOGIN_BONUS_STAFF: { status: 403, message: 'スタッフアカウントではログインボーナスを受け取れません。' },
  LOGIN_BONUS_NOT_AVAILABLE: {
    status: 403,
    message: 'このアカウントではログインボーナスを受け取れません。お問い合わせください。',
  },
};
