// The words of account restrictions (issue 34 items 5–6, decision 084), safe for the browser: the reason
// categories an operator chooses when holding or banning a member, what each means (the account policy page
// and the member's statement show the same words), the two kinds of restriction, and an appeal's outcomes.

export const restrictionKinds = ['hold', 'ban'] as const;
export type RestrictionKind = (typeof restrictionKinds)[number];

export const restrictionCategories = [
  'identity_check',
  'payment_dispute',
  'multiple_accounts',
  'bonus_abuse',
  'automation',
  'harassment',
  'terms_other',
] as const;
export type RestrictionCategory = (typeof restrictionCategories)[number];

export const appealOutcomes = ['upheld', 'lifted'] as const;
export type AppealOutcome = (typeof appealOutcomes)[number];

/** Each reason category: its label and one sentence members read (the policy lists them in this order). */
export const RESTRICTION_CATEGORY_WORDS: Readonly<Record<RestrictionCategory, { label: string; meaning: string }>> = {
  identity_check: {
    label: '本人確認のため',
    meaning: 'ご登録の内容やご購入について、ご本人であることを確認する必要がある場合です。',
  },
  payment_dispute: {
    label: '決済の確認（チャージバックなど）',
    meaning: 'カード会社や決済事業者から決済の取消しや不正利用の連絡があった場合です。',
  },
  multiple_accounts: {
    label: '複数アカウントの利用',
    meaning: 'お一人で複数のアカウントを作成・利用していると判断した場合です。',
  },
  bonus_abuse: {
    label: '特典・招待報酬の不正な取得',
    meaning: '特典コード・ログインボーナス・招待報酬を、規約に反する方法で取得した場合です。',
  },
  automation: {
    label: '自動化ツール・不正アクセス',
    meaning:
      'プログラムによる自動操作や、サーバーに過度の負荷をかける操作、他人のアカウントへのアクセスがあった場合です。',
  },
  harassment: {
    label: '迷惑行為',
    meaning: '他の会員やスタッフへの嫌がらせ、脅迫、なりすましなどがあった場合です。',
  },
  terms_other: {
    label: 'その他の規約違反',
    meaning: '上記以外で利用規約に違反すると判断した場合です。判断の理由は個別にお知らせします。',
  },
};

/** The two restrictions: a hold (sign-in and draws go on, buying coins and shipping wait) and a ban. */
export const RESTRICTION_KIND_LABELS: Readonly<Record<RestrictionKind, string>> = {
  hold: '購入・発送の保留',
  ban: '利用停止',
};

export const APPEAL_OUTCOME_LABELS: Readonly<Record<AppealOutcome, string>> = {
  upheld: '制限を継続',
  lifted: '制限を解除',
};

/** Days after the notice within which an appeal is taken, and the days the shop gives itself to decide. */
export const APPEAL_WINDOW_DAYS = 30;
export const APPEAL_DECISION_DAYS = 7;

/** The longest statement an operator writes to the member with a decision (characters). */
export const APPEAL_STATEMENT_MAX = 2000;

/** The account policy page (a content page shipped with the shop, modules/content/defaults). */
export const ACCOUNT_POLICY_PATH = '/account-policy';
