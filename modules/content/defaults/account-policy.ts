// The default 「アカウントの利用制限について」 page (issue 34 item 5, decision 084): what gets an account held or
// banned, what happens to paid coins, free coins and kept prizes in each case, and how to appeal. It states
// what the shop does (modules/identity restrictions, modules/admin, the contact desk): a change there is a
// change here. The reason categories come in the facts, in the words the member's statement uses.
import { heading, listItem, paragraph, type RichTextBlock } from '../rich-text';
import type { PageData } from '../source';

/** What the policy states, from the settings and identity's words (server/content.ts). */
export interface AccountPolicyFacts {
  siteName: string;
  paidCoinExpiryDays: number;
  freeCoinExpiryDays: number;
  prizeDecisionDays: number;
  /** The reason categories an operator chooses, in order, with what each means. */
  restrictionCategories: readonly { label: string; meaning: string }[];
  appealWindowDays: number;
  appealDecisionDays: number;
}

function linking(text: string, linked: string, url: string): RichTextBlock {
  const start = text.indexOf(linked);
  if (start < 0) throw new RangeError(`account policy: "${linked}" is not in "${text}"`);
  return { type: 'paragraph', text, spans: [{ start, end: start + linked.length, type: 'hyperlink', data: { url } }] };
}

/** @example accountPolicyPage(facts).uid === 'account-policy' */
export function accountPolicyPage(facts: AccountPolicyFacts): { uid: 'account-policy'; type: 'page'; data: PageData } {
  const { siteName, appealWindowDays, appealDecisionDays } = facts;
  return {
    uid: 'account-policy',
    type: 'page',
    data: {
      title: 'アカウントの利用制限について',
      description: `${siteName}がアカウントを保留・停止する場合、そのあいだのコインと獲得商品の扱い、異議申し立ての方法をご説明します。`,
      body: [
        paragraph(
          `${siteName}では、すべての会員に安心してご利用いただくため、利用規約に反する利用があった場合などにアカウントの利用を制限することがあります。制限するときは、その理由の区分と、そのときのコイン・獲得商品の明細を必ずお知らせし、異議を申し立てる方法をご用意しています。`,
        ),

        heading('制限の種類'),
        listItem(
          '購入・発送の保留：ログインはでき、お持ちのコインでオリパを引くこと、獲得商品をコインに交換することはできます。コインの購入と発送のご依頼は、保留を解除するまでお受けできません。マイページに理由の区分と明細を表示します。',
        ),
        listItem(
          '利用停止：ログインできなくなります。期間を決めて停止する場合と、解除するまで停止する場合（無期限）があります。ご登録のメールアドレスに、理由の区分・明細と異議申し立てのページへのリンクをお送りします。',
        ),

        heading('制限の理由の区分'),
        paragraph('制限するときは、次のいずれかの区分をお知らせします。'),
        ...facts.restrictionCategories.map((c) => listItem(`${c.label}：${c.meaning}`)),
        paragraph(
          '不正の手口を広めないため、調査の詳しい内容はお知らせできない場合があります。その場合も、区分と明細は必ずお知らせします。',
        ),

        heading('制限中のコインと獲得商品'),
        listItem(
          `有償コイン：制限中も残高はそのまま残ります。有効期限（購入日から${facts.paidCoinExpiryDays}日）は制限中も進みます。`,
        ),
        listItem(
          `無償コイン：制限中も残高はそのまま残ります。有効期限（付与日から原則${facts.freeCoinExpiryDays}日）は制限中も進みます。`,
        ),
        listItem(
          `獲得商品：保管を続けます。獲得から${facts.prizeDecisionDays}日を過ぎてもお選びいただけなかった商品は、制限中も通常どおりコインに交換されます。`,
        ),
        listItem(
          '異議が認められ制限を解除した場合、制限のあいだに失効したコインは同じ枚数をお戻しします。期間を決めた利用停止は、その期間が終われば自動で解除されます。',
        ),
        listItem(
          '無期限の利用停止を続ける場合も、未使用の有償コインはお申し出により払い戻し、保管中の獲得商品はお申し出によりご登録の住所へ発送します（いずれも、決済の取消し（チャージバック）や不正な手段によって得たものを除きます）。無償コインは失効します。',
        ),

        heading('異議申し立ての方法'),
        listItem(
          `制限のお知らせから${appealWindowDays}日以内に、明細のページの「異議を申し立てる」からお送りください（お一つの制限につき1回です）。`,
        ),
        linking(
          '明細のページを開けない場合は、お問い合わせフォームで種類「利用制限への異議申し立て」を選んでお送りください。',
          'お問い合わせフォーム',
          '/contact',
        ),
        listItem(
          `原則${appealDecisionDays}日以内に、制限を担当したスタッフとは別のスタッフが判断します。結果（制限を継続するか解除するか）とその説明を、メールと明細のページでお知らせします。`,
        ),
        listItem('判断とその理由は記録として保管し、あとから変更することはありません。'),
      ],
    },
  };
}
