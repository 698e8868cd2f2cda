// The built-in content source (decision 039): only published documents inside their time are served,
// special pages win over pages at the same uid, notices follow their window and order, and the default
// legal pages are written once and never overwrite an operator's edit.
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import {
  addDocuments,
  createBuiltinSource,
  defaultContentDocuments,
  paragraph,
  type AccountPolicyFacts,
  type LegalFacts,
} from './index';
import { contentDocuments } from './schema';

const handle = useTestDatabase('content_source');

const HOUR = 3_600_000;
const page = (title: string) => ({ title, body: [paragraph(`${title}の本文`)] });

const facts: LegalFacts & AccountPolicyFacts = {
  siteName: 'テストオリパ',
  sellerName: '株式会社テスト',
  sellerAddress: '〒100-0001 東京都千代田区千代田1-1',
  representative: '山田 太郎',
  contactEmail: 'support@example.jp',
  kobutsuCommission: '大阪府公安委員会',
  kobutsuPermitNumber: '621234567890',
  paidCoinExpiryDays: 180,
  freeCoinExpiryDays: 90,
  monthlyCapJpy: 500_000,
  minorMonthlyCapJpy: 10_000,
  prizeDecisionDays: 14,
  restrictionCategories: [
    { label: '本人確認のため', meaning: '確認が必要な場合です。' },
    { label: '複数アカウントの利用', meaning: '複数のアカウントを使った場合です。' },
  ],
  appealWindowDays: 30,
  appealDecisionDays: 7,
};

describe('the built-in content source', () => {
  it('serves published pages only, special pages first, and lists them for the sitemap', async () => {
    const db = handle.db;
    const now = Date.now();
    await addDocuments(db, [
      { id: 'p-about', type: 'page', uid: 'about', data: page('会社概要'), publishedAt: new Date(now - HOUR) },
      { id: 's-about', type: 'special', uid: 'about', data: page('特集'), publishedAt: new Date(now - HOUR) },
      { id: 'p-draft', type: 'page', uid: 'draft', data: page('下書き'), publishedAt: null },
      { id: 'p-later', type: 'page', uid: 'later', data: page('予約'), publishedAt: new Date(now + HOUR) },
      {
        id: 'p-deep',
        type: 'page',
        uid: 'help/coins',
        data: page('コインについて'),
        publishedAt: new Date(now - HOUR),
      },
    ]);
    const content = createBuiltinSource(db);
    expect((await content.getPage('about'))?.data.title).toBe('特集');
    expect((await content.getPage('about', ['page']))?.data.title).toBe('会社概要');
    expect(await content.getPage('draft')).toBeNull();
    expect(await content.getPage('later')).toBeNull();
    expect(await content.getPage('../etc/passwd')).toBeNull();
    const deep = await content.getPage('help/coins');
    expect(deep).toMatchObject({ url: '/help/coins', type: 'page', lang: 'ja-jp' });
    expect(deep?.publishedAt).toBe(new Date(now - HOUR).toISOString());
    const listed = await content.listPages();
    expect(listed.map((p) => `${p.type}:${p.url}`)).toEqual(['page:/about', 'special:/about', 'page:/help/coins']);
    expect(content.health()).toMatchObject({ source: 'builtin', stale: false });
  });

  it('shows notices inside their window, important first, newest first; an old notice stays readable', async () => {
    const db = handle.db;
    const now = Date.now();
    const at = (offset: number) => new Date(now + offset).toISOString();
    const notice = (title: string, extra: Record<string, unknown> = {}) => ({
      title,
      body: [paragraph(`${title}です。`)],
      ...extra,
    });
    await addDocuments(db, [
      {
        id: 'n1',
        type: 'notice',
        uid: 'old',
        data: notice('終了', { endsAt: at(-HOUR) }),
        publishedAt: new Date(now - 5 * HOUR),
      },
      {
        id: 'n2',
        type: 'notice',
        uid: 'soon',
        data: notice('予告', { startsAt: at(HOUR) }),
        publishedAt: new Date(now - HOUR),
      },
      {
        id: 'n3',
        type: 'notice',
        uid: 'new',
        data: notice('新着', { startsAt: at(-HOUR) }),
        publishedAt: new Date(now - HOUR),
      },
      {
        id: 'n4',
        type: 'notice',
        uid: 'older',
        data: notice('以前', { startsAt: at(-3 * HOUR) }),
        publishedAt: new Date(now - 3 * HOUR),
      },
      {
        id: 'n5',
        type: 'notice',
        uid: 'maint',
        data: notice('メンテナンス', { important: true, startsAt: at(-4 * HOUR) }),
        publishedAt: new Date(now - 4 * HOUR),
      },
      { id: 'n6', type: 'notice', uid: 'hidden', data: notice('非公開'), publishedAt: null },
    ]);
    const content = createBuiltinSource(db);
    expect((await content.listNotices()).map((n) => n.uid)).toEqual(['maint', 'new', 'older']);
    expect((await content.listNotices(new Date(now + 2 * HOUR))).map((n) => n.uid)).toContain('soon');
    expect((await content.getNotice('old'))?.url).toBe('/notices/old');
    expect(await content.getNotice('hidden')).toBeNull();
    expect(await content.getNotice('a/b')).toBeNull();
  });

  it('writes the default legal pages once, from the settings, and never overwrites an edit', async () => {
    const db = handle.db;
    await addDocuments(db, defaultContentDocuments(facts));
    const content = createBuiltinSource(db);
    const uids = (await content.listPages()).map((p) => p.uid);
    expect(uids).toEqual(
      expect.arrayContaining([
        'terms',
        'privacy',
        'tokushoho',
        'shikin',
        'kobutsu',
        'oripa-haishutsu',
        'account-policy',
      ]),
    );
    const kobutsu = await content.getPage('kobutsu');
    expect(kobutsu?.data.footerNote).toBe('古物商許可 大阪府公安委員会 第621234567890号');
    const text = (uid: string) => content.getPage(uid).then((p) => JSON.stringify(p?.data.body ?? []));
    expect(await text('shikin')).toContain('購入日から180日');
    expect(await text('shikin')).toContain('株式会社テスト');
    expect(await text('privacy')).toContain('AES-256-GCM');
    expect(await text('tokushoho')).toContain('山田 太郎');
    // The account policy (decision 084) lists the categories it is given, with the appeal's days.
    expect(await text('account-policy')).toContain('複数アカウントの利用：複数のアカウントを使った場合です。');
    expect(await text('account-policy')).toContain('お知らせから30日以内');
    expect(await text('account-policy')).toContain('購入日から180日');
    expect(await text('terms')).toContain('アカウントの利用制限について');

    await db
      .update(contentDocuments)
      .set({ data: { ...kobutsu!.data, footerNote: '古物商許可 編集済み' } })
      .where(eq(contentDocuments.uid, 'kobutsu'));
    await addDocuments(db, defaultContentDocuments({ ...facts, kobutsuPermitNumber: '999999999999' }));
    expect((await content.getPage('kobutsu'))?.data.footerNote).toBe('古物商許可 編集済み');
  });
});
