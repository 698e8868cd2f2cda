// The invitations' refusal words: status and Japanese message of each code (gathered by modules/refusals).
import { COMMON_REFUSAL_WORDS, digits, type RefusalWords } from '#modules/kernel';
import type { InvitationRefusalCode } from './codes';

// Invitations (docs/decisions/038): a code is typed by hand only by a new member (the link's cookie does it at sign-up).
export const INVITATION_REFUSAL_WORDS: RefusalWords<InvitationRefusalCode> = {
  UNAUTHENTICATED: COMMON_REFUSAL_WORDS.UNAUTHENTICATED,
  INVITATION_CODE_INVALID: {
    status: 400,
    message: '招待コードは8文字の英数字です（0・1・O・Iは使いません）。入力内容をご確認ください。',
  },
  INVITATION_CODE_NOT_FOUND: {
    status: 404,
    message: 'この招待コードは見つかりません。招待してくれた方にコードをもう一度ご確認ください。',
  },
  INVITATION_SELF: { status: 422, message: 'ご自身の招待コードは使えません。' },
  INVITATION_ALREADY_ATTACHED: { status: 409, message: '招待コードはすでに登録済みです（おひとり様1回まで）。' },
  INVITATION_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `招待コードの入力回数が多すぎます。${digits(Math.max(1, Math.ceil(Number(d.retryAfterSeconds ?? 3600) / 60)))}分ほど待ってからお試しください。`,
    headers: (d) => ({ 'Retry-After': String(Math.max(1, Number(d.retryAfterSeconds ?? 3600))) }),
  },
  INVITATION_TOO_LATE: {
    status: 409,
    message: (d) => `招待コードは会員登録から${digits(d.hours ?? 72)}時間以内、初回購入の前までに入力してください。`,
  },
};
