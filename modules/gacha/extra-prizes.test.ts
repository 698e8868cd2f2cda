// Extra prizes' rules as the editor, the pack page and the margin read them (decision 088, issue 34 item 3).
import { describe, it, expect } from 'vitest';
import {
  extraChancePerLot,
  extraNoteOf,
  extraPrizeOdds,
  extraPrizeProblems,
  isLotTier,
  type ExtraPrizeFields,
} from './extra-prizes';

type Tier = ExtraPrizeFields & { key: string; id: string; label: string; quantity: number };

const lot = (key: string, quantity: number): Tier => ({ key, id: `p.${key}`, label: `${key}賞`, quantity });

describe('extra prizes', () => {
  it('tells lots from extras and states each extra’s odds per lot', () => {
    const tiers: Tier[] = [
      lot('S', 1),
      lot('B', 999),
      { ...lot('K', 2), label: 'キリ番賞', kiribanAt: [100, 500] },
      { ...lot('P', 120), label: '個人キリ番賞', personalKiribanAt: [10, 50] },
      { ...lot('Q', 1), label: 'ピタリ賞', pitariOf: 'p.S' },
      { ...lot('L', 1), label: 'ラストワン賞', isLastOne: true },
    ];
    expect(tiers.filter(isLotTier).map((t) => t.key)).toEqual(['S', 'B']);
    expect(extraChancePerLot(tiers[2]!, 1000)).toBe(0.002);
    expect(extraChancePerLot(tiers[3]!, 1000)).toBeNull();
    expect(extraChancePerLot(tiers[4]!, 1000)).toBe(0.001);
    expect(extraPrizeOdds(tiers, 1000).map((o) => [o.label, o.condition, o.odds])).toEqual([
      ['キリ番賞', '全体の100口目・500口目を引いた方', '1口あたり 2/1,000'],
      ['個人キリ番賞', 'このオリパでのあなたの10口目・50口目', '到達で確定（お一人様各1回）'],
      ['ピタリ賞', 'S賞の最後の1口を引いた方', '1口あたり 1/1,000'],
      ['ラストワン賞', '最後の1口を引いた方', '1口あたり 1/1,000'],
    ]);
    expect(tiers.map((t) => extraNoteOf(t, tiers))).toEqual([
      null,
      null,
      '100口目・500口目を引いた方',
      'ご自身の10口目・50口目を引いた方（お一人様各1回）',
      'S賞の最後の1口を引いた方（ピタリ賞）',
      '最後の1口を引いた方',
    ]);
    expect(extraNoteOf({ kiribanAt: [11, 22] }, tiers)).toBe('ゾロ目（11口目・22口目）を引いた方');
  });

  it('refuses in Japanese what the commitment could not hold', () => {
    const ok: Tier[] = [
      lot('S', 1),
      lot('B', 99),
      { ...lot('P', 12), personalKiribanAt: [10, 50] },
      { ...lot('Q', 1), pitariOf: 'S' },
    ];
    expect(extraPrizeProblems(ok, 100, 'sequence')).toEqual([]);
    const messages = (tiers: Parameters<typeof extraPrizeProblems>[0], mode = 'sequence') =>
      extraPrizeProblems(tiers, 100, mode).map((p) => p.message);
    expect(messages([lot('B', 100), { ...lot('P', 11), personalKiribanAt: [10, 50] }])).toEqual([
      '個人キリ番賞の数量は渡せる最大数（12枚）にしてください。',
    ]);
    expect(messages([lot('B', 100), { ...lot('P', 1), personalKiribanAt: [101] }])).toEqual([
      '個人キリ番 101 口目は総口数（100口）以下にしてください。',
    ]);
    expect(messages([lot('B', 100), { ...lot('Q', 1), pitariOf: 'P' }, { ...lot('P', 1), isLastOne: true }])).toEqual([
      'ピタリ賞の対象には口のある賞を選んでください。',
    ]);
    expect(messages([lot('B', 100), { ...lot('Q', 1), pitariOf: 'B' }, { ...lot('R', 1), pitariOf: 'B' }])).toEqual([
      '同じ賞のピタリ賞は1つまでです。',
    ]);
    expect(messages(ok, 'beacon')).toEqual([
      '個人キリ番賞はビーコン方式の口では使えません。',
      'ピタリ賞はビーコン方式の口では使えません。',
    ]);
    expect(messages([lot('B', 100), { ...lot('Q', 1), pitariOf: 'B', isLastOne: true }])[0]).toContain('どれか1つだけ');
  });
});
