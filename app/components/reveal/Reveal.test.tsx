// The reveal renders on the server without a window: the dialog, スキップ, and the best prize as its landing frame.
import { describe, it, expect } from 'vitest';
import { renderToString } from 'react-dom/server';
import { Reveal } from './Reveal';
import type { RevealItem } from './types';

const items: RevealItem[] = [
  {
    prizeId: 'c',
    tierLabel: 'C賞',
    effect: 'normal',
    tierRank: 4,
    cardName: 'こもれびリス',
    imagePath: '/demo/cards/card-06.svg',
    rarity: 'C',
    cardGrade: null,
    conversionValue: 100,
    isLastOne: false,
  },
  {
    prizeId: 's',
    tierLabel: 'S賞',
    effect: 'rainbow',
    tierRank: 1,
    cardName: '蒼炎のフェニックス',
    imagePath: '/demo/cards/card-02.svg',
    rarity: 'SAR',
    cardGrade: 'PSA10',
    conversionValue: 30000,
    isLastOne: false,
  },
];

/** The landing frame's markup: from its marker to the end of the overlay. */
function landing(html: string): string {
  const start = html.indexOf('data-reveal-landing');
  expect(start).toBeGreaterThan(-1);
  return html.slice(start);
}

describe('Reveal', () => {
  it('renders a labelled modal dialog with a skip button', () => {
    const html = renderToString(<Reveal items={items} onDone={() => {}} />);
    expect(html).toMatch(/<div role="dialog"/);
    expect(html).toContain('aria-modal="true"');
    expect(html).toContain('aria-label="抽選演出"');
    expect(html).toMatch(/<button type="button"[^>]*>スキップ/);
    expect(html).toContain('role="status"');
    expect(html).toContain('fixed inset-0 z-overlay');
  });

  it('lands a single card on that prize, with its details', () => {
    const html = renderToString(<Reveal items={[items[1]]} onDone={() => {}} />);
    expect(html).toContain('data-reveal-effect="rainbow"');
    const land = landing(html);
    expect(land).toContain('>S賞</span>');
    expect(land).toContain('蒼炎のフェニックス');
    expect(land).toContain('alt="蒼炎のフェニックスのカード画像"');
    expect(land).toContain('%2Fdemo%2Fcards%2Fcard-02.svg');
    expect(land).toContain('>SAR</span>');
    expect(land).toContain('>PSA10</span>');
    expect(land).toContain('コイン交換 30,000コイン');
    expect(land).toContain('結果を見る');
  });

  it('lands a multi-draw on a grid of every card, the best one marked and named', () => {
    const html = renderToString(<Reveal items={items} onDone={() => {}} />);
    expect(html).toContain('data-reveal-effect="rainbow"');
    const land = landing(html);
    expect(land).toContain('data-reveal-grid="cards"');
    expect(land.match(/class="rv-tile /g)).toHaveLength(2);
    expect(land).toContain('alt="C賞 こもれびリス"');
    expect(land).toMatch(/class="rv-tile rv-hit rv-hit-rainbow rv-best"[^>]*data-best=""/);
    expect(land).toContain('2連の結果');
    expect(land).toContain('蒼炎のフェニックス');
    expect(land).toContain('結果を見る');
  });

  it('shows a 100連 as a fast grid of small tiles, hits starred', () => {
    const many: RevealItem[] = Array.from({ length: 100 }, (_, i) => ({ ...items[0], prizeId: `c${i}` }));
    many[57] = { ...items[1], prizeId: 's57' };
    const land = landing(renderToString(<Reveal items={many} onDone={() => {}} />));
    expect(land).toContain('data-reveal-grid="fast"');
    expect(land.match(/class="rv-tile /g)).toHaveLength(100);
    expect(land.match(/rv-tile-label/g)).toHaveLength(1);
    expect(land).toContain('当たり1枚');
  });

  it('plays the promotion for a rainbow prize and the banner for a last one', () => {
    const rainbow = renderToString(<Reveal items={items} onDone={() => {}} />);
    expect(rainbow).toContain('昇格！');
    const lastOne: RevealItem = {
      ...items[1],
      prizeId: 'lo',
      tierLabel: 'ラストワン賞',
      effect: 'lastone',
      tierRank: 0,
      isLastOne: true,
    };
    const html = renderToString(<Reveal items={[...items, lastOne]} onDone={() => {}} />);
    expect(html).toContain('data-reveal-effect="lastone"');
    expect(html).toContain('class="rv-lo-banner">ラストワン賞</p>');
    expect(landing(html)).toContain('LAST ONE');
  });

  it('waits sealed, without revealing the prize, when autoPlay is false', () => {
    const html = renderToString(<Reveal items={items} onDone={() => {}} autoPlay={false} />);
    expect(html).toContain('data-reveal-phase="sealed"');
    expect(html).toContain('開封する');
    expect(html).toContain('スキップ');
    expect(html).not.toContain('蒼炎のフェニックス');
  });

  it('offers a way out when there is nothing to show', () => {
    const html = renderToString(<Reveal items={[]} onDone={() => {}} />);
    expect(html).toContain('表示できる抽選結果がありません。');
    expect(html).toContain('閉じる');
  });
});
