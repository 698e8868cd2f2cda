// The farm page as its first response carries it: the header strip, one button per plot saying its
// state in words (locked ones with the level that opens them), the selected plot's sheet for each
// state (seeds, watering closed with its wait, the cap, 片付ける), the paused banner with every action
// disabled, and friends with their watering buttons.
import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { FarmGame, answerNotice } from './FarmGame';
import { FarmScene } from './FarmScene';
import { FarmStatus } from './FarmStatus';
import { friendWaterMessage } from './FarmFriends';
import { PlotSheet } from './PlotSheet';
import { CropArt } from './CropArt';
import { FIXTURE_NOW_MS, fixtureFarm, fixtureFriends } from './farm-fixtures';
import { plotAt } from './farm-state';
import { FARM_CROP_ARTS, type FarmView, type GrowthStage } from '#modules/farm/browser';

function rendered(page: ReactNode): string {
  const Stub = createRoutesStub([{ path: '/app/farm', Component: () => page }]);
  return renderToStaticMarkup(<Stub initialEntries={['/app/farm']} />);
}

/** The accessible names of the plot buttons, in order. */
const plotNames = (html: string) =>
  [...html.matchAll(/<button[^>]*data-plot="\d+"[^>]*><span class="sr-only">([^<]*)<\/span>/g)].map((m) => m[1]);

function sheet(farm: FarmView, plotNo: number, busy = false): string {
  const plot = farm.plots.find((candidate) => candidate.plotNo === plotNo)!;
  return rendered(
    <PlotSheet
      farm={farm}
      plot={plot}
      at={plotAt(plot, farm, FIXTURE_NOW_MS)}
      busy={busy}
      message={null}
      onIntent={() => {}}
      onClose={() => {}}
    />,
  );
}

/** Whether the button whose text (or name) contains `text` is disabled. */
const buttonWith = (html: string, text: string) => {
  const button = [...html.matchAll(/<button[^>]*>.*?<\/button>/g)].map((m) => m[0]).find((b) => b.includes(text));
  if (!button) throw new Error(`no button with ${text}`);
  return { disabled: /<button[^>]* disabled=""/.test(button), html: button };
};

describe('FarmScene', () => {
  it('makes each plot a button that says its state in words', () => {
    const html = rendered(<FarmScene farm={fixtureFarm()} now={FIXTURE_NOW_MS} onSelect={() => {}} />);
    expect(plotNames(html)).toEqual([
      '畑1：空き。種を植える',
      '畑2：ラディッシュが成長中、収穫まであと20分00秒（水やりできます）',
      '畑3：トマトが成長中、収穫まであと2時間05分00秒',
      '畑4：にんじんが収穫できます（枯れるまであと11時間00分00秒）',
      '畑5：とうもろこしが枯れました。片付ける',
      '畑6：レベル5で解放',
    ]);
    expect(html.match(/<button /g)).toHaveLength(6);
    // A locked plot shows the level that opens it and does not open a sheet.
    expect(html).toMatch(/aria-disabled="true"[^>]*data-plot="6"[^>]*><span class="sr-only">畑6：レベル5で解放</);
    expect(html).toContain('Lv.5で解放');
    // The tile's short clock for a growing crop (the spec's clock format).
    expect(html).toMatch(/水やりOK・20:00<\/span>/);
    expect(html).toMatch(/>収穫まで 2:05:00<\/span>/);
  });
});

describe('CropArt', () => {
  it('draws every art at every stage', () => {
    for (const art of FARM_CROP_ARTS) {
      for (const stage of [0, 1, 2, 3, 4] as GrowthStage[]) {
        const html = renderToStaticMarkup(<CropArt art={art} stage={stage} />);
        expect(html).toMatch(/^<svg viewBox="4 4 56 54" aria-hidden="true"/);
        expect(html).toMatch(/<(path|ellipse|circle)/);
      }
    }
    const ripe = FARM_CROP_ARTS.map((art) => renderToStaticMarkup(<CropArt art={art} stage={3} />));
    expect(new Set(ripe).size).toBe(FARM_CROP_ARTS.length);
  });
});

describe('PlotSheet', () => {
  it('offers the seeds on an empty plot, locked ones greyed with their level', () => {
    const html = sheet(fixtureFarm(), 1);
    expect(html).toContain('畑1：種を植える');
    expect(buttonWith(html, '>ラディッシュを植える（30分で収穫・2コイン）<').disabled).toBe(false);
    expect(buttonWith(html, '>トマトを植える（3時間で収穫・5コイン）<').disabled).toBe(false);
    const pumpkin = buttonWith(html, '>かぼちゃ（レベル8で解放・24時間で収穫・20コイン）<');
    expect(pumpkin.disabled).toBe(true);
    expect(pumpkin.html).toContain('grayscale');
  });

  it('waters an open plot, and closes watering with the time until it opens', () => {
    const open = sheet(fixtureFarm(), 2);
    expect(buttonWith(open, '水やりする').disabled).toBe(false);
    expect(open).toContain('あと20分00秒');
    expect(open).toContain('25%短くなります（8時間に1回）');
    const closed = sheet(fixtureFarm(), 3);
    expect(buttonWith(closed, '水やりする').disabled).toBe(true);
    expect(closed).toContain('あと7時間30分00秒で水やりできます');
    expect(closed).toContain('あと2時間05分00秒');
  });

  it('harvests a ripe crop with its coins, and says when the cap keeps them', () => {
    const ripe = sheet(fixtureFarm(), 4);
    expect(buttonWith(ripe, '収穫する（+4コイン）').disabled).toBe(false);
    expect(ripe).not.toContain('farm-cap-notice');
    expect(ripe).toContain('あと11時間00分00秒で枯れてしまいます');
    const capped = sheet(fixtureFarm({ today: { ...fixtureFarm().today, coins: 30 } }), 4);
    expect(buttonWith(capped, '収穫する（+0コイン）').disabled).toBe(false);
    expect(capped).toContain('今日の上限に達しているため、コインは増えません');
  });

  it('clears a withered crop, and shows the loading state while an intention is on its way', () => {
    expect(buttonWith(sheet(fixtureFarm(), 5), '片付ける').disabled).toBe(false);
    const busy = sheet(fixtureFarm(), 5, true);
    expect(busy).toContain('aria-busy="true"');
    expect(busy).toContain('処理中');
  });

  it('disables every action while the farm is paused', () => {
    const paused = fixtureFarm({ paused: true });
    expect(buttonWith(sheet(paused, 1), 'ラディッシュ').disabled).toBe(true);
    expect(buttonWith(sheet(paused, 2), '水やりする').disabled).toBe(true);
    expect(buttonWith(sheet(paused, 4), '収穫する').disabled).toBe(true);
    expect(buttonWith(sheet(paused, 5), '片付ける').disabled).toBe(true);
    expect(sheet(paused, 4)).toContain('ファームは現在メンテナンス中です');
  });
});

describe('FarmStatus', () => {
  it("shows today's coins against the cap, the streak, the level and the time to the day's reset", () => {
    const html = rendered(<FarmStatus farm={fixtureFarm()} now={FIXTURE_NOW_MS} />);
    expect(html).toMatch(/12<span[^>]*> \/ 30 コイン<\/span>/);
    expect(html).toContain('連続4日');
    expect(html).toContain('Lv.3');
    expect(html).toMatch(/リセット（日本時間0時）まで<span[^>]*>あと12時間00分00秒<\/span>/);
    expect(
      rendered(
        <FarmStatus farm={fixtureFarm({ today: { ...fixtureFarm().today, coins: 30 } })} now={FIXTURE_NOW_MS} />,
      ),
    ).toContain('今日の収穫コインは上限に達しました。');
  });
});

describe('FarmGame', () => {
  it('renders the strip, the field and the friends with their watering buttons', () => {
    const html = rendered(<FarmGame data={{ farm: fixtureFarm(), friends: fixtureFriends }} />);
    expect(html).not.toContain('ファームは現在メンテナンス中です');
    expect(plotNames(html)).toHaveLength(6);
    expect(html.match(/水やりOK/g)).toHaveLength(1);
    expect(buttonWith(html, 'aria-label="はなこさんの畑に水やり">').disabled).toBe(false);
    expect(buttonWith(html, 'aria-label="たろうさん：今日は水やり済み">今日は水やり済み<').disabled).toBe(true);
    expect(html).toMatch(/<a [^>]*href="\/app\/friends\/add"[^>]*>フレンドを追加<\/a>/);
    expect(html).toContain('aria-live="polite" data-testid="farm-notice"');
  });

  it('shows the paused banner and disables watering friends', () => {
    const html = rendered(<FarmGame data={{ farm: fixtureFarm({ paused: true }), friends: fixtureFriends }} />);
    expect(html).toContain('<p class="font-bold">ファームは現在メンテナンス中です</p>');
    expect(buttonWith(html, 'aria-label="はなこさんの畑に水やり"').disabled).toBe(true);
    expect(html).toContain('ファームはメンテナンス中です</p>');
    expect(html).not.toContain('水やりOK');
  });

  it('words the answers under the field: refusals, and harvests held by the cap', () => {
    expect(answerNotice(3, { ok: false, code: 'WATER_TOO_SOON', message: 'まだ水やりできません' })).toEqual({
      plotNo: 3,
      text: '畑3：まだ水やりできません',
      tone: 'error',
    });
    const result = { action: 'harvest' as const, plotNo: 4, farm: fixtureFarm() };
    expect(answerNotice(4, { ok: true, result: { ...result, coins: 4, cappedCoins: 0 } }).text).toBe(
      '畑4を収穫しました。+4コイン',
    );
    expect(answerNotice(4, { ok: true, result: { ...result, coins: 2, cappedCoins: 2 } }).text).toBe(
      '畑4を収穫しました。+2コイン（上限のため2コインは対象外）',
    );
    expect(answerNotice(4, { ok: true, result: { ...result, coins: 0, cappedCoins: 4 } }).text).toBe(
      '畑4を収穫しました。今日の上限に達しているため、コインは増えません',
    );
  });
});

describe('friendWaterMessage', () => {
  it("says what watering a friend's farm gave, a cap that held it back, or the refusal", () => {
    const result = { action: 'friend_water' as const, plotNo: null, farm: fixtureFarm() };
    expect(friendWaterMessage({ ok: true, result: { ...result, coins: 1, cappedCoins: 0 } }, 'はなこ')).toEqual({
      text: 'はなこさんの畑に水やりしました。あなたに+1コイン',
      tone: 'ok',
    });
    expect(friendWaterMessage({ ok: true, result: { ...result, coins: 0, cappedCoins: 1 } }, 'はなこ')?.text).toBe(
      'はなこさんの畑に水やりしました。今日の上限のため、あなたのコインは増えません',
    );
    expect(
      friendWaterMessage({ ok: false, code: 'FRIEND_WATERED', message: '今日はもう水やりしました。' }, 'はなこ'),
    ).toEqual({
      text: '今日はもう水やりしました。',
      tone: 'error',
    });
    expect(friendWaterMessage(undefined, 'はなこ')).toBeNull();
  });
});
