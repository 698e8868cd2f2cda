// The pack editor's words and shapes shared by its pages and their server side (decision 030).

export const PACK_STEPS = [
  { id: 'basics', label: '基本情報' },
  { id: 'sale', label: '販売設定' },
  { id: 'tiers', label: '賞' },
  { id: 'images', label: '画像' },
  { id: 'review', label: '確認・公開' },
] as const;
export type PackStep = (typeof PACK_STEPS)[number]['id'];

export const STATUS_LABELS: Record<string, string> = {
  draft: '下書き',
  scheduled: '公開予約',
  on_sale: '販売中',
  sold_out: '完売',
  ended: '終了',
};

export interface PackEditorAnswer {
  ok?: string;
  error?: string;
  /** Field errors of the step, by field name (tiers: `tiers.<row>.<field>`). */
  fields?: Record<string, string>;
  /** What was typed, so a refused step keeps it. */
  typed?: Record<string, string>;
}
