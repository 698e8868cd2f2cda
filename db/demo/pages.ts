// Demo content: the legal pages every Japanese shop must show, a guide, and one special page.
import {
  heading,
  paragraph,
  listItem,
  type ContentPageData,
  type BannerData,
  type RichTextBlock,
} from '#modules/content/rich-text';

/** A paragraph whose first occurrence of `linked` links to `url` (the contact form the legal pages promise). */
function paragraphLinking(text: string, linked: string, url: string): RichTextBlock {
  const start = text.indexOf(linked);
  if (start < 0) throw new RangeError(`demo pages: "${linked}" is not in "${text}"`);
  return { type: 'paragraph', text, spans: [{ start, end: start + linked.length, type: 'hyperlink', data: { url } }] };
}

type PageSeed = { uid: string; type: 'page' | 'special'; data: ContentPageData };

const seller = '株式会社ステラトレーディング（デモ）';

const pages: PageSeed[] = [
  {
    uid: 'tokushoho',
    type: 'page',
    data: {
      title: '特定商取引法に基づく表記',
      description: '販売事業者、所在地、販売価格、支払方法などの表示です。',
      body: [
        heading('販売事業者'),
        paragraph(seller),
        heading('運営統括責任者'),
        paragraph('星野 光（デモ）'),
        heading('所在地'),
        paragraph('〒100-0005 東京都千代田区丸の内0-0-0（デモ表示）'),
        heading('連絡先'),
        paragraphLinking(
          'お問い合わせフォームよりご連絡ください。電話番号はご請求があれば遅滞なく開示します。',
          'お問い合わせフォーム',
          '/contact',
        ),
        heading('販売価格'),
        paragraph('各商品ページおよびコイン購入ページに税込価格で表示しています。'),
        heading('商品代金以外の必要料金'),
        paragraph('発送手数料（発送申請画面に表示）、インターネット接続料金、通信料金。'),
        heading('支払方法'),
        paragraph('クレジットカード、PayPay、Paidy、メルペイ、Amazon Pay'),
        heading('支払時期'),
        paragraph('各決済事業者の定めによります。'),
        heading('引渡時期'),
        paragraph('コインは決済完了後ただちに付与します。獲得したカードは発送申請から7営業日以内に発送します。'),
        heading('返品・キャンセル'),
        paragraph(
          'デジタルコンテンツの性質上、購入後のキャンセル・返金はお受けできません。法令に定めがある場合を除きます。',
        ),
      ],
    },
  },
  {
    uid: 'shikin',
    type: 'page',
    data: {
      title: '資金決済法に基づく表示',
      body: [
        heading('前払式支払手段の名称'),
        paragraph('コイン'),
        heading('発行者'),
        paragraph(seller),
        heading('有効期限'),
        paragraph('有償コインは購入日から180日、無償コインは付与日から原則90日です。'),
        heading('利用できる場所'),
        paragraph('本サービス内のオリパ（くじ）でご利用いただけます。'),
        heading('払戻し'),
        paragraph('コインは原則として払戻しいたしません。ただし法令に定めがある場合を除きます。'),
      ],
    },
  },
  {
    uid: 'terms',
    type: 'page',
    data: {
      title: '利用規約',
      body: [
        paragraph(
          'この利用規約は、本サービスの利用条件を定めるものです。会員の皆さまには本規約に従ってご利用いただきます。',
        ),
        heading('第1条（適用）'),
        paragraph('本規約は、会員と当社との間の本サービスの利用に関わる一切の関係に適用されます。'),
        heading('第2条（禁止事項）'),
        listItem('法令または公序良俗に違反する行為'),
        listItem('複数アカウントの作成・不正な特典の取得'),
        listItem('本サービスの運営を妨害する行為'),
        heading('第3条（未成年の利用）'),
        paragraph('未成年の方は保護者の同意を得たうえでご利用ください。月間のご購入上限が設けられます。'),
      ],
    },
  },
  {
    uid: 'privacy',
    type: 'page',
    data: {
      title: 'プライバシーポリシー',
      body: [
        paragraph('当社は、会員の個人情報を適切に取り扱います。'),
        heading('取得する情報'),
        listItem('メールアドレス、ニックネーム'),
        listItem('電話番号（認証に利用）'),
        listItem('配送先住所（発送時のみ）'),
        heading('利用目的'),
        paragraph('本サービスの提供、本人確認、商品の発送、お問い合わせへの対応のために利用します。'),
        heading('お問い合わせ窓口'),
        paragraphLinking(
          '個人情報の開示・訂正・削除のご請求は、お問い合わせフォームよりご連絡ください。',
          'お問い合わせフォーム',
          '/contact',
        ),
      ],
    },
  },
  {
    uid: 'kobutsu',
    type: 'page',
    data: {
      title: '古物営業法に基づく表示',
      body: [
        heading('古物商許可番号'),
        paragraph('東京都公安委員会 第000000000000号（デモ表示）'),
        heading('許可者名'),
        paragraph(seller),
      ],
    },
  },
  {
    uid: 'guide',
    type: 'page',
    data: {
      title: 'ご利用ガイド',
      description: 'はじめての方へ：コインの購入からカードのお届けまで',
      body: [
        heading('1. コインを購入する'),
        paragraph('チャージ画面からコインを購入します。'),
        heading('2. オリパを引く'),
        paragraph('好きなオリパを選び、1回・10連・100連から選んで引きます。'),
        heading('3. カードを受け取る'),
        paragraph('当たったカードは発送するか、コインに交換できます。14日以内に選ばないと自動でコインに交換されます。'),
      ],
    },
  },
  {
    uid: 'winter-campaign',
    type: 'special',
    data: {
      title: '冬のオリパ祭り',
      description: '期間限定の特別オリパを多数公開中',
      heroImage: '/demo/banners/banner-02.svg',
      body: [
        paragraph('冬のオリパ祭りを開催中です。期間中は対象オリパで特別なラストワン賞をご用意しています。'),
        listItem('開催期間：12月1日〜12月25日（デモ）'),
      ],
    },
  },
];

const banners: { uid: string; data: BannerData }[] = [
  {
    uid: 'banner-winter',
    data: {
      title: '冬のオリパ祭り 開催中',
      image: '/demo/banners/banner-02.svg',
      link: '/winter-campaign',
      order: 1,
      period: '12月1日〜12月25日（デモ）',
    },
  },
  {
    uid: 'banner-guide',
    data: { title: 'はじめての方へ ご利用ガイド', image: '/demo/banners/banner-01.svg', link: '/guide', order: 2 },
  },
  {
    uid: 'banner-pokemon',
    data: { title: 'ポケモンのオリパ一覧', image: '/demo/banners/banner-03.svg', link: '/gacha/pokemon', order: 3 },
  },
];

/** Rows for content_documents; published now. */
export function legalAndEditorialPages() {
  const now = new Date();
  return [
    ...pages.map((page) => ({
      id: `demo-${page.type}-${page.uid}`,
      type: page.type,
      uid: page.uid,
      data: page.data,
      publishedAt: now,
    })),
    ...banners.map((banner) => ({
      id: `demo-banner-${banner.uid}`,
      type: 'banner' as const,
      uid: banner.uid,
      data: banner.data,
      publishedAt: now,
    })),
  ];
}
