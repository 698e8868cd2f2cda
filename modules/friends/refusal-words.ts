// The friends' refusal words: status and Japanese message of each code (gathered by modules/refusals).
import { digits, jstText, type RefusalWords } from '#modules/kernel';
import type { FriendRefusalCode } from './pairs';

// Friends (docs/decisions/045): codes are the members' personal codes, typed in full or half width.
export const FRIEND_REFUSAL_WORDS: RefusalWords<FriendRefusalCode> = {
  FRIEND_CODE_INVALID: { status: 400, message: 'フレンドコードは8文字の英数字で入力してください。' },
  FRIEND_CODE_UNKNOWN: { status: 404, message: 'このフレンドコードの会員が見つかりません。コードをご確認ください。' },
  FRIEND_SELF: { status: 409, message: 'ご自身のフレンドコードです。友達のコードを入力してください。' },
  FRIEND_ALREADY: { status: 409, message: 'すでにフレンドです。' },
  FRIEND_REQUEST_PENDING: { status: 409, message: 'すでにフレンド申請を送っています。相手の承認をお待ちください。' },
  FRIEND_REQUEST_DECLINED_RECENTLY: {
    status: 409,
    message: (d) =>
      `この会員への申請は承認されませんでした。${typeof d.retryAt === 'string' ? `${jstText(d.retryAt)}以降に` : 'しばらくしてから'}もう一度申請できます。`,
  },
  FRIEND_LIMIT_REACHED: {
    status: 409,
    message: (d) => `フレンドは${digits(d.limit)}人（申請中を含む）までです。フレンドを整理してから申請してください。`,
  },
  FRIEND_OTHER_LIMIT_REACHED: { status: 409, message: '相手のフレンド数が上限に達しているため、申請できません。' },
  FRIEND_NOT_FOUND: { status: 404, message: 'フレンド申請が見つかりません。すでに処理されている可能性があります。' },
  FRIEND_NOT_AVAILABLE: { status: 403, message: 'このアカウントではフレンド機能を利用できません。' },
};
