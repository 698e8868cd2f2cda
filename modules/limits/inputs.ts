// A member's limit change and self-exclusion as the page's form and the API read them.
import { z } from 'zod';
import { type LimitKind, LIMIT_MAX, LIMIT_KINDS } from './rules';

/** A limit amount as typed: a whole number from 0 to the kind's maximum; null removes the limit. */
const limitAmount = (kind: LimitKind) =>
  z
    .int({ error: '上限は半角数字（整数）で入力してください。' })
    .min(0, { error: '上限は0以上で入力してください。' })
    .max(LIMIT_MAX[kind], {
      error: `上限は${LIMIT_MAX[kind].toLocaleString('ja-JP')}${kind === 'purchase' ? '円' : 'コイン'}以下で入力してください。`,
    })
    .nullable();

/** A change of one or both limits (null: no limit). The page's form and the API read it alike. */
export const limitChangeSchema = z
  .object({
    purchaseLimitJpy: limitAmount('purchase')
      .optional()
      .meta({ description: '1か月のコイン購入上限（円、日本時間の暦月）。null で上限なし（7日後に反映）' }),
    drawLimitCoins: limitAmount('draw')
      .optional()
      .meta({ description: '1か月のガチャ消費上限（コイン、日本時間の暦月）。null で上限なし（7日後に反映）' }),
  })
  .refine((v) => v.purchaseLimitJpy !== undefined || v.drawLimitCoins !== undefined, {
    error: '変更する上限を指定してください。',
  });
export type LimitChange = z.infer<typeof limitChangeSchema>;

export const limitKindSchema = z.enum(LIMIT_KINDS, { error: '上限の種類が正しくありません。' });

export const selfExclusionSchema = z.object({
  months: z
    .union([z.literal(1), z.literal(3), z.literal(6)], {
      error: '自己除外の期間は1か月・3か月・6か月から選んでください。',
    })
    .meta({ description: '自己除外の期間（か月）' }),
  confirm: z
    .literal(true, { error: '自己除外は期間中に解除・短縮できません。確認のうえ confirm に true を指定してください。' })
    .meta({ description: '期間中は解除も短縮もできないことの確認（true）' }),
});
