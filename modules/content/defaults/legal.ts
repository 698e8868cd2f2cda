// The legal and trust pages every shop starts with (docs/decisions/039): written once into the
// built-in store on start when missing, then edited by operators in /admin/content. The facts come from
// the settings (seller, address, permit), so a new shop's first pages already name it.
import { heading, listItem, paragraph, type RichTextBlock } from '../rich-text';
import type { PageData } from '../source';

/** The facts the legal pages state, from the settings (server/config.ts). */
export interface LegalFacts {
  siteName: string;
  sellerName: string;
  sellerAddress: string;
  representative: string;
  /** Where members write to (the contact form is always offered too). */
  contactEmail: string | null;
  kobutsuCommission: string;
  kobutsuPermitNumber: string;
  paidCoinExpiryDays: number;
  freeCoinExpiryDays: number;
  monthlyCapJpy: number;
  minorMonthlyCapJpy: number;
  prizeDecisionDays: number;
}

/** A paragraph whose first occurrence of `linked` links to `url`. */
function linking(text: string, linked: string, url: string): RichTextBlock {
  const start = text.indexOf(linked);
  if (start < 0) throw new RangeError(`legal pages: "${linked}" is not in "${text}"`);
  return { type: 'paragraph', text, spans: [{ start, end: start + linked.length, type: 'hyperlink', data: { url } }] };
}

const yen = (n: number) => `${n.toLocaleString('ja-JP')}円`;

function contactBlocks(facts: LegalFacts): RichTextBlock[] {
  return [
    linking('お問い合わせフォームよりご連絡ください。', 'お問い合わせフォーム', '/contact'),
    ...(facts.contactEmail ? [paragraph(`メール：${facts.contactEmail}`)] : []),
  ];
}

export type LegalPageSeed = { uid: string; type: 'page'; data: PageData };

/** The 古物営業法 line the footer of every page shows (the kobutsu page's footerNote). */
export const kobutsuFooterNote = (facts: Pick<LegalFacts, 'kobutsuCommission' | 'kobutsuPermitNumber'>) =>
  `古物商許可 ${facts.kobutsuCommission} 第${facts.kobutsuPermitNumber}号`;

/**
 * The legal pages as PageData, in the footer's order.
 * @example legalPages(legalFactsOf(config)).map((p) => p.uid) // ['terms', 'privacy', 'tokushoho', 'shikin', 'kobutsu']
 */
export function legalPages(facts: LegalFacts): LegalPageSeed[] {
  return [termsPage(facts), privacyPage(facts), tokushohoPage(facts), shikinPage(facts), kobutsuPage(facts)];
}

function termsPage(facts: LegalFacts): LegalPageSeed {
  const { siteName, sellerName } = facts;
  return {
    uid: 'terms',
    type: 'page',
    data: {
      title: '利用規約',
      description: `${siteName}をご利用いただく条件です。`,
      body: [
        paragraph(
          `この利用規約（以下「本規約」）は、${sellerName}（以下「当社」）が提供する「${siteName}」（以下「本サービス」）の利用条件を定めるものです。会員の皆さまには、本規約に同意のうえご利用いただきます。`,
        ),
        heading('第1条（適用）'),
        paragraph('本規約は、会員と当社との間の本サービスの利用に関わる一切の関係に適用されます。'),
        heading('第2条（会員登録）'),
        paragraph(
          'メールアドレスなどの登録をもって会員となります。登録内容は正確に保ち、変更があればすみやかに更新してください。お一人につき1アカウントに限ります。',
        ),
        heading('第3条（コイン）'),
        listItem(
          `コインは本サービス内のオリパ（くじ）にのみ使える前払式の支払手段です。有償コインの有効期限は購入日から${facts.paidCoinExpiryDays}日、無償コインは付与日から原則${facts.freeCoinExpiryDays}日です。`,
        ),
        listItem('コインは換金・払戻し・譲渡できません（法令に定めがある場合を除きます）。'),
        listItem('コインは無償コイン（期限の近いものから）、有償コイン（古いものから）の順に使われます。'),
        heading('第4条（オリパと獲得商品）'),
        listItem('各オリパの口数・賞の内容・交換コインはオリパのページに表示します。すべての口に賞があります。'),
        listItem(
          `獲得したカードは、発送するかコインに交換するかをお選びいただけます。${facts.prizeDecisionDays}日以内にお選びいただけない場合は、自動でコインに交換します。`,
        ),
        listItem('抽選の公平性は、販売前に公開するコミットメントと販売終了後のリビールで検証できます。'),
        heading('第5条（未成年の利用）'),
        paragraph(
          `未成年の方は、保護者の同意を得たうえでご利用ください。18歳未満の方のご購入は月${yen(facts.minorMonthlyCapJpy)}までです（すべての会員に月${yen(facts.monthlyCapJpy)}の上限があり、ご自身でさらに低い上限を設定できます）。`,
        ),
        heading('第6条（禁止事項）'),
        listItem('法令または公序良俗に違反する行為'),
        listItem('複数アカウントの作成、不正な特典・招待報酬の取得'),
        listItem('本サービスのサーバーやネットワークに過度の負荷をかける行為、自動化された操作'),
        listItem('他の会員になりすます行為、第三者の決済手段の不正利用'),
        listItem('獲得商品の転売を目的とした組織的な利用、その他当社が不適切と判断する行為'),
        heading('第7条（利用停止）'),
        linking(
          '会員が本規約に違反した場合などに、当社は購入・発送の保留や利用の停止を行うことがあります。その理由の区分、制限中のコインと獲得商品の扱い、異議申し立ての方法は「アカウントの利用制限について」に定めます。',
          'アカウントの利用制限について',
          '/account-policy',
        ),
        heading('第8条（サービスの変更・停止）'),
        paragraph(
          '当社は、メンテナンスや障害対応のため本サービスを一時停止することがあります。オリパの販売を終了する場合は、事前にお知らせします。',
        ),
        heading('第9条（免責）'),
        paragraph(
          '当社は、当社の故意または重過失による場合を除き、本サービスの利用により会員に生じた損害について、会員が直近1か月に当社へ支払った金額を上限として責任を負います。',
        ),
        heading('第10条（規約の変更）'),
        paragraph('本規約を変更する場合は、効力発生日と変更内容を本サービス上でお知らせします。'),
        heading('第11条（準拠法・管轄）'),
        paragraph(
          '本規約は日本法に準拠し、本サービスに関する紛争は当社所在地を管轄する地方裁判所を第一審の専属的合意管轄裁判所とします。',
        ),
      ],
    },
  };
}

function privacyPage(facts: LegalFacts): LegalPageSeed {
  const { siteName, sellerName } = facts;
  return {
    uid: 'privacy',
    type: 'page',
    data: {
      title: 'プライバシーポリシー',
      description: '個人情報の取り扱いについて',
      body: [
        paragraph(
          `${sellerName}は、「${siteName}」の会員の個人情報を、個人情報保護法その他の法令に従い適切に取り扱います。`,
        ),
        heading('取得する情報'),
        listItem('メールアドレス、ニックネーム、パスワード（復元できない形で保存します）'),
        listItem('電話番号（本人確認のためのSMS認証に利用）'),
        listItem('配送先の氏名・フリガナ・住所・電話番号（獲得商品の発送に利用）'),
        listItem('コインの購入・利用履歴、オリパの抽選結果、発送の履歴'),
        listItem('お問い合わせの内容と添付画像'),
        listItem('アクセス元のIPアドレス、ブラウザの種類、Cookie（ログインの維持と不正利用の防止）'),
        heading('利用目的'),
        listItem('本サービスの提供、コインの管理、獲得商品の発送'),
        listItem('本人確認、不正利用・複数アカウントの防止'),
        listItem('お問い合わせへの対応、重要なお知らせの送付'),
        listItem('ご同意いただいた場合のみ：新着オリパなどのお知らせメール'),
        heading('安全管理措置'),
        listItem(
          '配送先住所は、データベースに暗号化（AES-256-GCM）して保存します。復号して閲覧できるのは発送業務の権限を持つスタッフだけで、閲覧はすべて記録されます。',
        ),
        listItem('スタッフの管理画面は二要素認証を必須とし、すべての操作を監査ログに記録します。'),
        listItem('パスワードはハッシュ化して保存し、当社の従業員も知ることはできません。'),
        heading('第三者への提供と委託'),
        paragraph(
          '法令に基づく場合を除き、ご本人の同意なく第三者に提供しません。次の業務は委託先に必要な範囲で情報を預けます。',
        ),
        listItem('獲得商品の配送：配送事業者（氏名・住所・電話番号）'),
        listItem('決済：各決済事業者（当社はカード番号を保持しません）'),
        listItem('SMS認証・メール送信：送信事業者（電話番号・メールアドレス）'),
        heading('外部送信について'),
        paragraph(
          'ページ内の動画やSNS投稿の埋め込みは、「表示する」を押したときにはじめて提供元（YouTube、X）のサーバーに接続します。押すまで提供元に情報は送信されません。',
        ),
        heading('保存期間'),
        paragraph(
          '退会後は、法令で保存が求められる取引記録を除き、個人情報を削除または匿名化します。配送先住所は退会時に削除します。',
        ),
        heading('開示・訂正・削除のご請求'),
        linking(
          'ご本人からの開示・訂正・利用停止・削除のご請求は、お問い合わせフォームよりご連絡ください。ご本人確認のうえ、遅滞なく対応します。',
          'お問い合わせフォーム',
          '/contact',
        ),
        heading('お問い合わせ窓口'),
        paragraph(`${sellerName}　個人情報お問い合わせ窓口`),
        ...contactBlocks(facts),
      ],
    },
  };
}

function tokushohoPage(facts: LegalFacts): LegalPageSeed {
  const { sellerName } = facts;
  return {
    uid: 'tokushoho',
    type: 'page',
    data: {
      title: '特定商取引法に基づく表記',
      description: '販売事業者、所在地、販売価格、支払方法などの表示です。',
      body: [
        heading('販売事業者'),
        paragraph(sellerName),
        heading('運営統括責任者'),
        paragraph(facts.representative),
        heading('所在地'),
        paragraph(facts.sellerAddress),
        heading('連絡先'),
        linking(
          'お問い合わせフォームよりご連絡ください。電話番号はご請求があれば遅滞なく開示します。',
          'お問い合わせフォーム',
          '/contact',
        ),
        ...(facts.contactEmail ? [paragraph(`メール：${facts.contactEmail}`)] : []),
        heading('販売価格'),
        paragraph('各オリパのページおよびコイン購入ページに、税込価格で表示しています。'),
        heading('商品代金以外の必要料金'),
        paragraph('発送手数料（発送申請の確認画面に表示します）、インターネット接続料金、通信料金。'),
        heading('支払方法'),
        paragraph('クレジットカード、PayPay、Paidy、メルペイ、Amazon Pay'),
        heading('支払時期'),
        paragraph('クレジットカードはご注文時、その他は各決済事業者の定めによります。'),
        heading('引渡時期'),
        paragraph(
          'コインは決済の完了後ただちに付与します。獲得したカードは、発送申請の確認画面に表示するお届け予定日までに発送します。',
        ),
        heading('返品・キャンセル'),
        paragraph(
          'デジタルコンテンツの性質上、購入後のキャンセル・返金はお受けできません。ただし法令に定めがある場合を除きます。お届けしたカードに破損や誤りがあった場合は、到着から7日以内にお問い合わせください。',
        ),
        heading('動作環境'),
        paragraph('最新版のSafari、Google Chrome、Microsoft Edge、Firefox。'),
      ],
    },
  };
}

function shikinPage(facts: LegalFacts): LegalPageSeed {
  const { siteName, sellerName } = facts;
  return {
    uid: 'shikin',
    type: 'page',
    data: {
      title: '資金決済法に基づく表示',
      description: 'コイン（前払式支払手段）についての表示です。',
      body: [
        heading('前払式支払手段の名称'),
        paragraph('コイン'),
        heading('発行者'),
        paragraph(`${sellerName}（${facts.sellerAddress}）`),
        heading('支払可能金額等'),
        paragraph(
          `1回のご購入はコイン購入ページに表示する商品ごと、ご購入の合計は月${yen(facts.monthlyCapJpy)}までです（18歳未満の方は月${yen(facts.minorMonthlyCapJpy)}まで）。`,
        ),
        heading('有効期間'),
        listItem(`有償コイン：購入日から${facts.paidCoinExpiryDays}日`),
        listItem(
          `無償コイン（キャンペーンなどで付与）：付与日から原則${facts.freeCoinExpiryDays}日（付与時に別の期限を表示した場合はその期限）`,
        ),
        paragraph('期限を過ぎたコインは失効し、ご利用いただけなくなります。'),
        heading('残高の確認方法'),
        listItem(
          'ログイン中は、画面上部のコイン表示で合計を確認できます。タップすると有償・無償の内訳が表示されます。',
        ),
        linking(
          'マイページの「コイン履歴」で、購入・利用・失効の履歴と有効期限を確認できます。',
          'マイページ',
          '/mypage?tab=coins',
        ),
        heading('使用できる場所'),
        paragraph(`「${siteName}」内のオリパ（くじ）、発送手数料のお支払い。`),
        heading('利用上の注意'),
        listItem('コインは換金・払戻し・他の会員への譲渡はできません。'),
        listItem('コインは無償コイン（期限の近いものから）、有償コイン（古いものから）の順に使われます。'),
        heading('払戻し'),
        paragraph(
          'コインは原則として払戻しいたしません。ただし、本サービスを終了する場合など法令に定めがある場合は、法令に従い払戻しを行います。',
        ),
        heading('お問い合わせ先'),
        ...contactBlocks(facts),
        heading('法令上の位置付け'),
        paragraph(
          `有償コインの有効期間は発行日から6か月以内（${facts.paidCoinExpiryDays}日）のため、資金決済法上の届出・発行保証金の供託の対象外です。利用者保護のため、同法の表示事項に準じて表示しています。`,
        ),
      ],
    },
  };
}

function kobutsuPage(facts: LegalFacts): LegalPageSeed {
  const { sellerName } = facts;
  return {
    uid: 'kobutsu',
    type: 'page',
    data: {
      title: '古物営業法に基づく表示',
      description: '古物商の許可についての表示です。',
      footerNote: kobutsuFooterNote(facts),
      body: [
        heading('古物商許可番号'),
        paragraph(`第${facts.kobutsuPermitNumber}号`),
        heading('許可をした公安委員会'),
        paragraph(facts.kobutsuCommission),
        heading('許可を受けた者'),
        paragraph(sellerName),
        heading('主として取り扱う古物の区分'),
        paragraph('道具商（トレーディングカード）'),
        heading('所在地'),
        paragraph(facts.sellerAddress),
      ],
    },
  };
}
