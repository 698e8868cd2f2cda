// Extra prizes' rules as the editor, the pack page and the margin read them (decision 088, issue 34 item 3).
import { describe, it, expect } from 'vitest';
import {
  ceilingMeter,
  ceilingWords,
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

  it('states a 天井賞 (decision 089): what it guarantees, after how many lots, from its own stock, and the meter', () => {
    const tiers: Tier[] = [
      lot('S', 1),
      lot('A', 9),
      lot('B', 990),
      { ...lot('C', 10), label: '天井賞', ceilingAfter: 100, ceilingOf: ['p.A', 'p.S'] },
    ];
    expect(tiers.filter(isLotTier).map((t) => t.key)).toEqual(['S', 'A', 'B']);
    expect(extraChancePerLot(tiers[3]!, 1000)).toBeNull();
    expect(ceilingWords(['p.A', 'p.S'], tiers)).toBe('A賞以上');
    expect(ceilingWords(['p.S'], tiers)).toBe('S賞以上');
    expect(ceilingWords(['p.A'], tiers)).toBe('A賞');
    expect(ceilingWords(['p.S', 'p.B'], tiers)).toBe('S賞・B賞のいずれか');
    expect(extraPrizeOdds(tiers, 1000).map((o) => [o.condition, o.odds])).toEqual([
      ['A賞以上が出ないまま100口引いた方', '100口ごとに確定（専用の在庫10枚から。ほかの賞の口は減りません）'],
    ]);
    expect(extraNoteOf(tiers[3]!, tiers)).toBe('A賞以上が出ないまま100口引いた方（天井賞）');
    expect(ceilingMeter({ after: 100, streak: 62, words: 'A賞以上', price: 100 })).toBe(
      'あと38口（3,800円分）でA賞以上確定（天井）',
    );
    expect(ceilingMeter({ after: 100, streak: 0, words: 'A賞以上', price: 1500 })).toBe(
      'あと100口（150,000円分）でA賞以上確定（天井）',
    );
    expect(ceilingMeter({ after: 100, streak: null, words: 'A賞以上', price: 100 })).toBeNull();
  });

  it('refuses a 天井賞 the commitment could not hold or the words 「以上確定」 would not back', () => {
    const ceiling = (over: Partial<Tier> & { conversionValue?: number }) => ({
      ...lot('C', 10),
      ceilingAfter: 10,
      ceilingOf: ['A', 'S'],
      conversionValue: 500,
      ...over,
    });
    const lots = [
      { ...lot('S', 1), conversionValue: 5000 },
      { ...lot('A', 9), conversionValue: 500 },
      { ...lot('B', 90), conversionValue: 50 },
    ];
    const messages = (tiers: Parameters<typeof extraPrizeProblems>[0], mode = 'sequence') =>
      extraPrizeProblems(tiers, 100, mode).map((p) => p.message);
    expect(messages([...lots, ceiling({})])).toEqual([]);
    expect(messages([...lots, ceiling({ quantity: 9 })])).toEqual([
      '天井賞の数量は渡せる最大数（10枚）にしてください。',
    ]);
    expect(messages([...lots, ceiling({ conversionValue: 499 })])).toEqual([
      '天井賞の交換コインは、確定する賞のうち最も低い 500コイン以上にしてください（「以上確定」と書くため）。',
    ]);
    expect(messages([...lots, ceiling({ ceilingOf: ['Z'] })])).toEqual([
      '天井で確定する賞には口のある賞を選んでください。',
    ]);
    expect(messages([...lots, ceiling({ ceilingAfter: 101, quantity: 0 })])).toEqual([
      '天井の口数は総口数（100口）以下にしてください。',
    ]);
    expect(messages([...lots, ceiling({}), ceiling({ key: 'D' })])).toContain('天井賞は1つのオリパに1つまでです。');
    expect(messages([...lots, ceiling({})], 'beacon')).toEqual(['天井賞はビーコン方式の口では使えません。']);
    expect(messages([...lots, ceiling({ isLastOne: true })])[0]).toContain('どれか1つだけ');
  });
});
