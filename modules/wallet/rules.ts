// The wallet's fixed rules: default coin lifetimes, "expires soon", and why coins moved in Japanese.

/** Default lifetimes (docs/product.md): paid coins 180 days after purchase, free coins 90 days. */
export const PAID_COIN_DAYS = 180;
export const FREE_COIN_DAYS = 90;
/** "Expires soon" on the balance card: within this many days. */
export const EXPIRING_SOON_DAYS = 30;

/** Why coins moved; each is shown to the member in Japanese. */
export const LEDGER_REASON_LABELS: Record<string, string> = {
  purchase: 'コイン購入',
  purchase_bonus: 'コイン購入ボーナス',
  purchase_reversal: '返金・チャージバックによる取消',
  draw: 'ガチャ',
  prize_conversion: 'カードをコインに交換',
  prize_auto_conversion: '期限切れのカードを自動交換',
  prize_conversion_undo: 'カード交換の取り消し',
  expiry: '有効期限切れ',
  operator_grant: '運営からの付与',
  promo_code: '特典コード',
  invitation: '友達招待',
  line_campaign: 'LINE連携キャンペーン',
  mail_attachment: 'メールの受け取り',
  signup_gift: '新規登録プレゼント',
  level_up: 'レベルアップ報酬',
  rank_reward: 'ランク報酬',
  farm: 'ファーム報酬',
  login_bonus: 'ログインボーナス',
  refund: '返金',
  adjustment: '調整',
  shipping_fee: '発送手数料',
  shipping_fee_refund: '発送手数料の返却',
  shipping_compensation: '発送遅延のお詫び',
  prize_compensation: 'ご用意できなかったカードの補償',
  closure_refund: '閉店による払戻し',
};
