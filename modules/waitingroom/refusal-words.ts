// The waiting room's refusal words: each code's HTTP status and Japanese message (gathered by modules/refusals).
import { digits, type RefusalWords } from '#modules/kernel';
import type { WaitingRoomDrawRefusalCode, WaitingRoomRefusalCode } from './rules';

export const WAITING_ROOM_REFUSAL_WORDS: RefusalWords<WaitingRoomRefusalCode> = {
  WAITING_ROOM_NOT_FOUND: { status: 404, message: 'このガチャには待機列がありません。' },
  WAITING_ROOM_CLOSED: { status: 409, message: 'このガチャの販売は終了しました。待機列には並べません。' },
  WAITING_ROOM_PHONE_TAKEN: {
    status: 409,
    message: 'この電話番号ではすでに待機列に並んでいます。待機列には電話番号ごとに1人まで並べます。',
  },
  WAITING_ROOM_LEFT: { status: 409, message: '待機列から抜けたため、このガチャの待機列にはもう並べません。' },
  WAITING_ROOM_PHONE_REQUIRED: {
    status: 403,
    message: '待機列に並ぶには電話番号の認証が必要です。マイページで電話番号を認証してください。',
  },
  WAITING_ROOM_CAPTCHA_FAILED: {
    status: 400,
    message: 'ロボットでないことの確認ができませんでした。もう一度お試しください。',
  },
};

export const WAITING_ROOM_DRAW_REFUSAL_WORDS: RefusalWords<WaitingRoomDrawRefusalCode> = {
  WAITING_ROOM_NOT_JOINED: {
    status: 403,
    message: 'このガチャは待機列に並んだ方から順番にご購入いただけます。待機列に並んでください。',
  },
  WAITING_ROOM_NOT_YOUR_TURN: {
    status: 409,
    message: (d) =>
      typeof d.place === 'number'
        ? `まだ順番ではありません（あなたの順番は${digits(d.place)}番目です）。待機列の画面でお待ちください。`
        : 'まだ順番ではありません。待機列の画面でお待ちください。',
  },
  WAITING_ROOM_WINDOW_CLOSED: { status: 409, message: 'あなたの購入時間は終了しました。' },
};
