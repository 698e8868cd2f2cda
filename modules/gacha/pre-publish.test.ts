// The pack editor's copy check against the pack's own numbers (issue 34 item 8): a 還元率 the copy states must
// be one the pack backs — the lots' value ÷ (price × lots), as the pack page shows it — whatever the
// forbidden-words setting says.
import { describe, expect, it } from 'vitest';
import { forbiddenWordsIn, unbackedClaimsIn } from './pre-publish';
import type { PackDefinition } from './index';

const card = { cardImagePath: '/demo/cards/card-01.svg' };
/** 200 lots at 100 coins: A 10 × 1,000 + B 190 × 40 = 17,600 of 20,000 → 還元率 88.0 %; a ラストワン賞 of 50,000. */
const pack = (copy: { title?: string; description?: string; cardName?: string }): PackDefinition => ({
  id: 'claims-pack',
  genreId: 'pokemon',
  title: copy.title ?? '年末オリパ',
  description: copy.description ?? '',
  imagePath: '/demo/packs/pack-01.svg',
  pricePerDraw: 100,
  tiers: [
    { key: 'A', label: 'A賞', rank: 1, cardName: copy.cardName ?? 'A', quantity: 10, conversionValue: 1_000, ...card },
    { key: 'B', label: 'B賞', rank: 2, cardName: 'B', quantity: 190, conversionValue: 40, ...card },
    {
      key: 'L',
      label: 'ラストワン賞',
      rank: 0,
      cardName: 'L',
      quantity: 1,
      conversionValue: 50_000,
      isLastOne: true,
      ...card,
    },
  ],
});

describe('unbackedClaimsIn', () => {
  it('refuses a 還元率 above the pack’s, in any width or wording, naming where and the real figure', () => {
    for (const title of [
      '還元率120%',
      '還元率100%以上確定',
      '還元率は驚異の１２０％',
      '還元率 95.5パーセント',
      '還元率88.1%',
    ]) {
      const problems = unbackedClaimsIn(pack({ title }));
      expect(problems, title).toHaveLength(1);
      expect(problems[0]).toMatch(/^タイトルの「還元率/);
      expect(problems[0]).toContain('このオリパの還元率は88.0%です');
    }
    expect(unbackedClaimsIn(pack({ description: '今回は還元率99%！', cardName: '還元率200%カード' }))).toEqual([
      expect.stringMatching(/^説明の「還元率99%」/),
      expect.stringMatching(/^A賞のカード名の「還元率200%」/),
    ]);
  });

  it('passes a claim the numbers back, and copy without a figure', () => {
    for (const title of ['還元率88%', '還元率88.0%', '還元率80%以上', '高還元率オリパ', '年末オリパ'])
      expect(unbackedClaimsIn(pack({ title })), title).toEqual([]);
  });

  it('does not count the ラストワン賞: it goes to one member, not to every lot', () => {
    // With the ラストワン賞 the prizes are worth 67,600 of 20,000 (338 %); the lots alone 88 %.
    expect(unbackedClaimsIn(pack({ title: '還元率300%' }))).toHaveLength(1);
  });

  it('holds whatever the forbidden words are: the setting can be emptied, the numbers cannot', () => {
    const def = pack({ title: '還元率150%' });
    expect(forbiddenWordsIn(def, [])).toEqual([]);
    expect(unbackedClaimsIn(def)).toHaveLength(1);
  });
});
