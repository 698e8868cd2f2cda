// The winners feed's pure rules.
import { describe, expect, it } from 'vitest';
import type { WinnerFeedEntry } from '#modules/draw';
import { announcementOf, mergeWins, timeAgo } from './feed';

const entry = (id: string, wonAt: string): WinnerFeedEntry => ({
  id,
  wonAt,
  name: '匿名',
  tierLabel: 'S賞',
  effect: 'rainbow',
  cardName: 'ステラドラゴン',
  imagePath: '/images/card.png',
  gachaId: 'p1',
  genreId: 'pokemon',
  gachaTitle: 'テストオリパ',
});

describe('the winners feed rules', () => {
  it('says how long ago in Japanese', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    expect(timeAgo('2026-11-24T09:59:30Z', now)).toBe('たった今');
    expect(timeAgo('2026-11-24T09:57:00Z', now)).toBe('3分前');
    expect(timeAgo('2026-11-24T07:00:00Z', now)).toBe('3時間前');
    expect(timeAgo('2026-11-21T10:00:00Z', now)).toBe('3日前');
    // A clock slightly behind the server's never says "in the future".
    expect(timeAgo('2026-11-24T10:00:05Z', now)).toBe('たった今');
  });

  it('merges live entries once each, newest first, up to the rows shown', () => {
    const a = entry('1', '2026-11-24T10:00:00Z');
    const b = entry('2', '2026-11-24T10:01:00Z');
    const c = entry('3', '2026-11-24T10:02:00Z');
    expect(mergeWins([b, a], [c, b], 5).map((e) => e.id)).toEqual(['3', '2', '1']);
    expect(mergeWins([b, a], [c], 2).map((e) => e.id)).toEqual(['3', '2']);
  });

  it('announces a win with the pack only where the page is not the pack', () => {
    const e = entry('1', '2026-11-24T10:00:00Z');
    expect(announcementOf(e, true)).toBe('匿名さんが「テストオリパ」でS賞「ステラドラゴン」を獲得しました');
    expect(announcementOf(e, false)).toBe('匿名さんがS賞「ステラドラゴン」を獲得しました');
  });
});
