// The contact form's words and limits, pure and browser-safe (the form and the desk show them; the
// server checks the same limits): categories, statuses, what an inquiry may be about, field lengths.
import type { InquiryCategory, InquiryRelatedKind, InquiryStatus } from './schema';

/** The fixed list of what an inquiry is about, in the order the form offers them. */
export const INQUIRY_CATEGORY_LABELS: Readonly<Record<InquiryCategory, string>> = {
  account: 'アカウント・ログイン',
  payment: 'コインの購入・お支払い',
  draw: 'オリパ（ガチャ）の結果',
  prize: '獲得商品・コインへの交換',
  shipping: '発送・お届け',
  appeal: '利用制限への異議申し立て',
  bug: '不具合のご報告',
  other: 'その他',
};

export const INQUIRY_STATUS_LABELS: Readonly<Record<InquiryStatus, string>> = {
  new: '新規',
  in_progress: '対応中',
  waiting: 'お客様の返信待ち',
  closed: '完了',
};

export const INQUIRY_RELATED_KIND_LABELS: Readonly<Record<InquiryRelatedKind, string>> = {
  order: 'コインのご購入',
  draw: 'オリパを引いた結果',
  shipping_request: '発送依頼',
};

/** Field lengths (characters) and counts, the same in the form and on the server. */
export const INQUIRY_LIMITS = {
  subject: 100,
  message: 4000,
  email: 254,
  reply: 8000,
  note: 2000,
  templateTitle: 100,
  templateBody: 8000,
  images: 3,
} as const;

/** The image types the form takes (sniffed from the bytes on the server, whatever the name says). */
export const INQUIRY_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The hidden field bots fill in and people never see (the honeypot). */
export const INQUIRY_HONEYPOT_FIELD = 'website';

/**
 * A reference number as an inquirer may type it (spaces, lower case and full-width characters are
 * forgiven); null when it cannot be one.
 * @example readInquiryReference(' q-20261124-8k3f ') === 'Q-20261124-8K3F'
 */
export function readInquiryReference(text: string): string | null {
  const value = text
    .normalize('NFKC')
    .trim()
    .toUpperCase()
    .replace(/[‐－―ー−]/g, '-');
  return /^Q-\d{8}-[0-9A-Z]{4}$/.test(value) ? value : null;
}
