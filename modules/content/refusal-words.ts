// The content editor's and the banners' refusal words: status and Japanese message of each code.
import { megabytes, type RefusalWords } from '#modules/kernel';
import type { BannerRefusalCode } from './banners';
import type { ContentRefusalCode } from './versions';

export const BANNER_REFUSAL_WORDS: RefusalWords<BannerRefusalCode> = {
  BANNER_NOT_FOUND: { status: 404, message: 'バナーが見つかりません。一覧を再読み込みしてください。' },
  BANNER_IMAGE_REQUIRED: { status: 400, message: 'バナーの画像を選んでください（JPEG・PNG・WebP）。' },
  BANNER_IMAGE_TOO_LARGE: {
    status: 413,
    message: (d) => `画像が大きすぎます（${megabytes(d.maxBytes)}まで）。小さくしてからアップロードしてください。`,
  },
  BANNER_IMAGE_TYPE: {
    status: 415,
    message: '画像を読み込めませんでした。JPEG・PNG・WebPの画像をアップロードしてください。',
  },
};

export const CONTENT_REFUSAL_WORDS: RefusalWords<ContentRefusalCode> = {
  CONTENT_NOT_FOUND: { status: 404, message: 'ページが見つかりません。一覧を再読み込みしてください。' },
  CONTENT_VERSION_NOT_FOUND: {
    status: 404,
    message: (d) => `版${String(d.version ?? '')}が見つかりません。履歴を再読み込みしてください。`,
  },
  CONTENT_VERSION_CONFLICT: {
    status: 409,
    message: (d) =>
      `ほかの人が先に保存しました（最新は版${String(d.current ?? '')}）。ページを再読み込みして、最新の内容に変更を加え直してください。`,
  },
  CONTENT_UID_INVALID: {
    status: 400,
    message: (d) =>
      d.type === 'notice'
        ? 'お知らせのURL（/notices/ のあと）は半角英小文字・数字・-・_ で入力してください（例：2026-winter）。'
        : d.type === 'special'
          ? '特集ページのURLは半角英小文字・数字・-・_ の1階層で入力してください（例：winter-campaign）。'
          : 'URLは半角英小文字・数字・-・_ で、/ で区切って4階層までで入力してください（例：guide/faq）。',
  },
  CONTENT_UID_RESERVED: {
    status: 400,
    message: (d) => `「${String(d.segment ?? '')}」で始まるURLはサイトの機能が使っています。別のURLにしてください。`,
  },
  CONTENT_UID_TAKEN: {
    status: 409,
    message: (d) => `URL「/${String(d.uid ?? '')}」はほかのページが使っています。別のURLにしてください。`,
  },
  CONTENT_INVALID: {
    status: 400,
    message: (d) => (typeof d.message === 'string' && d.message ? d.message : '入力内容を確認してください。'),
  },
  CONTENT_NOT_PUBLISHED: { status: 409, message: 'このページは公開されていません。' },
  CONTENT_SCHEDULE_IN_PAST: { status: 400, message: '予約の日時は今より後にしてください。' },
  CONTENT_NOT_SCHEDULED: { status: 409, message: '予約はありません。ページを再読み込みしてください。' },
  CONTENT_IMAGE_TOO_LARGE: {
    status: 413,
    message: (d) => `画像が大きすぎます（${megabytes(d.maxBytes)}まで）。小さくしてからアップロードしてください。`,
  },
  CONTENT_IMAGE_TYPE: {
    status: 415,
    message: '画像を読み込めませんでした。JPEG・PNG・WebPの画像をアップロードしてください。',
  },
};
