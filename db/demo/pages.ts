// Demo content: a guide, one special page and the home banners. The legal pages are every shop's
// default content (modules/content/defaults), written on start.
import { heading, paragraph, listItem, type ContentPageData, type BannerData } from '#modules/content/rich-text';

type PageSeed = { uid: string; type: 'page' | 'special'; data: ContentPageData };

const pages: PageSeed[] = [
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
