// The reveal renders on the server without a window: the dialog and スキップ, and nothing of the result
// until its cards turn (decision 056); the landing frames, rendered as they are at each step.
import { describe, it, expect } from 'vitest';
import { renderToString } from 'react-dom/server';
import { MultiLanding, Reveal, SingleLanding } from './Reveal';
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

  it('renders nothing of the result while the pack plays: no tier, card, count or headline', () => {
    const many: RevealItem[] = Array.from({ length: 10 }, (_, i) => ({ ...items[0], prizeId: `c${i}` }));
    many[3] = { ...items[1], prizeId: 's3' };
    for (const draw of [[items[1]], items, many]) {
      const html = renderToString(<Reveal items={draw} onDone={() => {}} />);
      expect(html).toContain('data-reveal-phase="playing"');
      for (const hidden of [
        'S賞',
        'C賞',
        '蒼炎のフェニックス',
        'こもれびリス',
        '獲得',
        '当たり',
        'の結果',
        'card-02',
        'card-06',
      ])
        expect(html, hidden).not.toContain(hidden);
      expect(html).not.toContain('data-reveal-landing');
    }
  });

  it('lands a single card on that prize, with its details', () => {
    const land = renderToString(
      <SingleLanding best={items[1]} effect="rainbow" onResult={() => {}} resultButton={{ current: null }} />,
    );
    expect(land).toContain('>S賞</span>');
    expect(land).toContain('蒼炎のフェニックス');
    expect(land).toContain('alt="蒼炎のフェニックスのカード画像"');
    expect(land).toContain('%2Fdemo%2Fcards%2Fcard-02.svg');
    expect(land).toContain('>SAR</span>');
    expect(land).toContain('>PSA10</span>');
    expect(land).toContain('コイン交換 30,000コイン');
    expect(land).toContain('結果を見る');
  });

  const grid = (order: RevealItem[], turned: boolean[], landed: boolean) =>
    renderToString(
      <MultiLanding
        order={order}
        turned={turned}
        landed={landed}
        onTurn={() => {}}
        onResult={() => {}}
        resultButton={{ current: null }}
      />,
    );

  it('shows a multi-draw face down: a face and tier only once its card has turned, the headline once all have', () => {
    const order = [items[0], items[1]];
    const down = grid(order, [false, false], false);
    expect(down).toContain('data-reveal-grid="cards"');
    expect(down.match(/class="rv-tile-down"/g)).toHaveLength(2);
    expect(down).toContain('aria-label="1枚目をめくる"');
    for (const hidden of ['C賞', 'S賞', 'こもれびリス', '蒼炎', '獲得', '当たり', 'data-best', 'rv-hit'])
      expect(down, hidden).not.toContain(hidden);
    expect(down).toContain('めくっています 0/2');

    const first = grid(order, [true, false], false);
    expect(first).toContain('alt="C賞 こもれびリス"');
    expect(first).toContain('data-tier="C賞"');
    expect(first).not.toContain('S賞');
    expect(first).not.toContain('獲得');
    expect(first).toContain('最後の1枚…（タップでめくる）');

    const land = grid(order, [true, true], true);
    expect(land).toMatch(/class="rv-tile rv-turned rv-hit rv-hit-rainbow rv-best"[^>]*data-best=""/);
    expect(land).toContain('2連の結果');
    expect(land).toContain('・当たり1枚');
    expect(land).toContain('>S賞</span>');
    expect(land).toContain('蒼炎のフェニックス');
    expect(land).toContain('結果を見る');
  });

  it('shows a 100連 as a fast grid of small tiles, each turned one with a 12 px tier badge', () => {
    const many: RevealItem[] = Array.from({ length: 100 }, (_, i) => ({ ...items[0], prizeId: `c${i}` }));
    many[99] = { ...items[1], prizeId: 's99' };
    const land = grid(
      many,
      many.map(() => true),
      true,
    );
    expect(land).toContain('data-reveal-grid="fast"');
    expect(land.match(/class="rv-tile rv-turned/g)).toHaveLength(100);
    expect(land.match(/class="rv-tile-badge rv-tb-normal">C賞</g)).toHaveLength(99);
    expect(land.match(/class="rv-tile-badge rv-tb-rainbow">S賞</g)).toHaveLength(1);
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
    const land = grid([items[0], items[1], lastOne], [true, true, true], true);
    expect(land).toContain('LAST ONE');
  });

  it('waits sealed, without revealing the prize, when autoPlay is false', () => {
    const html = renderToString(<Reveal items={items} onDone={() => {}} autoPlay={false} />);
    expect(html).toContain('data-reveal-phase="sealed"');
    expect(html).toContain('開封する');
    expect(html).toContain('スキップ');
    expect(html).not.toContain('蒼炎のフェニックス');
  });

  it("shows what it is given in its corner inside the dialog (a beacon draw's verdict), and nothing without it", () => {
    const verdict = <p role="status">このスマホで公正性を確認（8/8）</p>;
    const html = renderToString(<Reveal items={items} onDone={() => {}} aside={verdict} />);
    const dialog = html.slice(html.indexOf('role="dialog"'));
    expect(dialog).toContain('このスマホで公正性を確認（8/8）');
    expect(html.indexOf('このスマホで公正性を確認')).toBeLessThan(html.indexOf('スキップ'));
    expect(renderToString(<Reveal items={items} onDone={() => {}} />)).not.toContain(
      'left-[calc(env(safe-area-inset-left)',
    );
  });

  it('offers a way out when there is nothing to show', () => {
    const html = renderToString(<Reveal items={[]} onDone={() => {}} />);
    expect(html).toContain('表示できる抽選結果がありません。');
    expect(html).toContain('閉じる');
  });
});
