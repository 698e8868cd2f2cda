// The winners feed's pure rules.
import { describe, expect, it } from 'vitest';
import type { WinnerFeedEntry } from '#modules/draw';
import { announcementOf, collapseWins, mergeWins, shownWins, timeAgo } from './feed';

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
  sponsored: false,
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

  it('keeps a sponsored win apart from an identical unsponsored one: its 「PR」 is part of what a reader sees', () => {
    const plain = entry('1', '2026-11-24T10:00:00Z');
    const sponsored = { ...entry('2', '2026-11-24T10:01:00Z'), sponsored: true };
    const again = { ...entry('3', '2026-11-24T10:02:00Z'), sponsored: true };
    const rows = collapseWins([plain, sponsored, again], 5);
    expect(rows.map((r) => [r.sponsored, r.count])).toEqual([
      [true, 2],
      [false, 1],
    ]);
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
    expect(announcementOf({ ...e, sponsored: true }, false)).toBe(
      '【PR】匿名さんがS賞「ステラドラゴン」を獲得しました',
    );
    expect(announcementOf(e, false)).toBe('匿名さんがS賞「ステラドラゴン」を獲得しました');
  });

  it('collapses identical wins into one row 「×5」 at the place of the newest', () => {
    // A 100連's five A賞 of one card, one minute after an S賞 of another member.
    const fennec = (id: string) => ({
      ...entry(id, '2026-11-24T10:05:00Z'),
      tierLabel: 'A賞',
      effect: 'gold' as const,
      cardName: '雷光のフェネック SR',
    });
    const s = { ...entry('1', '2026-11-24T10:04:00Z'), name: 'はな' };
    const rows = collapseWins([fennec('6'), fennec('5'), fennec('4'), fennec('3'), fennec('2'), s], 5);
    expect(rows.map((r) => [r.tierLabel, r.cardName, r.name, r.count, r.id])).toEqual([
      ['A賞', '雷光のフェネック SR', '匿名', 5, '6'],
      ['S賞', 'ステラドラゴン', 'はな', 1, '1'],
    ]);
    expect(rows[0]!.ids).toEqual(['6', '5', '4', '3', '2']);
    // Its key stays the oldest win's while newer repeats join (React keeps the row).
    expect(rows[0]!.key).toBe('2');
    expect(collapseWins([fennec('7'), fennec('6'), fennec('5')], 5)[0]!.key).toBe('5');
  });

  it('keeps apart what differs, what is far apart in time, and interleaved repeats join their row', () => {
    const a = entry('1', '2026-11-24T10:00:00Z');
    const other = { ...entry('2', '2026-11-24T10:01:00Z'), cardName: '別のカード' };
    const sameAgain = entry('3', '2026-11-24T10:02:00Z');
    const named = { ...entry('4', '2026-11-24T10:03:00Z'), name: 'はな' };
    const otherPack = { ...entry('5', '2026-11-24T10:04:00Z'), gachaId: 'p2' };
    const muchLater = entry('6', '2026-11-24T10:30:00Z');
    const rows = collapseWins([a, other, sameAgain, named, otherPack, muchLater], 10);
    expect(rows.map((r) => [r.id, r.count])).toEqual([
      ['6', 1],
      ['5', 1],
      ['4', 1],
      ['3', 2],
      ['2', 1],
    ]);
    expect(rows[3]!.ids).toEqual(['3', '1']);
  });

  it('counts a repeated id once and shows at most the rows asked for', () => {
    const a = entry('1', '2026-11-24T10:00:00Z');
    expect(collapseWins([a, a], 5)).toHaveLength(1);
    expect(collapseWins([a, a], 5)[0]!.count).toBe(1);
    const distinct = ['1', '2', '3', '4', '5', '6', '7'].map((id) => ({
      ...entry(id, `2026-11-24T10:0${id}:00Z`),
      cardName: `カード${id}`,
    }));
    expect(collapseWins(distinct, 5).map((r) => r.id)).toEqual(['7', '6', '5', '4', '3']);
  });

  it('sends the entries of the rows shown only, which collapse the same way in the browser', () => {
    const same = ['9', '8', '7'].map((id) => entry(id, '2026-11-24T10:05:00Z'));
    const older = ['1', '2', '3'].map((id) => ({ ...entry(id, `2026-11-24T09:0${id}:00Z`), cardName: `カード${id}` }));
    const sent = shownWins([...same, ...older], 2);
    expect(sent.map((e) => e.id)).toEqual(['9', '8', '7', '3']);
    expect(collapseWins(sent, 2).map((r) => r.count)).toEqual([3, 1]);
  });
});
