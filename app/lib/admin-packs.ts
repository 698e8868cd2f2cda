// The pack editor's words and shapes shared by its pages and their server side (decision 030).
import type { AdminActionResult } from '~/lib/admin-action';

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

/**
 * What the editor's actions answer (the admin result, decision 067); `fields` holds the step's field
 * errors by field name (tiers: `tiers.<row>.<field>`).
 */
export type PackEditorAnswer = AdminActionResult<{
  /** What was typed, so a refused step keeps it. */
  typed: Record<string, string>;
}>;
