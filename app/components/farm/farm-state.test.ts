// The farm page's reading of the server's view: a plot's state and countdowns as the page's clock
// moves, the words each plot button says, and the picture an intention leaves until the server answers.
import { describe, expect, it } from 'vitest';
import { FIXTURE_NOW_MS, fixtureFarm } from './farm-fixtures';
import {
  capNotice,
  expectedFarm,
  growTimeText,
  intentionOf,
  plotAt,
  plotLabel,
  tapKey,
  waterWaitText,
} from './farm-state';

const farm = fixtureFarm();
const plot = (plotNo: number) => farm.plots.find((candidate) => candidate.plotNo === plotNo)!;
const label = (plotNo: number, now = FIXTURE_NOW_MS) => plotLabel(plot(plotNo), plotAt(plot(plotNo), farm, now));

describe('plot labels', () => {
  it('says each state in words, with the countdown in Japanese units', () => {
    expect(label(1)).toBe('畑1：空き。種を植える');
    expect(label(2)).toBe('畑2：ラディッシュが成長中、収穫まであと20分00秒（水やりできます）');
    expect(label(3)).toBe('畑3：トマトが成長中、収穫まであと2時間05分00秒');
    expect(label(4)).toBe('畑4：にんじんが収穫できます（枯れるまであと11時間00分00秒）');
    expect(label(5)).toBe('畑5：とうもろこしが枯れました。片付ける');
    expect(label(6)).toBe('畑6：レベル5で解放');
  });

  it('follows the page clock: a growing crop ripens, then withers, without a new view', () => {
    expect(label(2, FIXTURE_NOW_MS + 61_000)).toBe('畑2：ラディッシュが成長中、収穫まであと18分59秒（水やりできます）');
    expect(plotAt(plot(2), farm, FIXTURE_NOW_MS + 20 * 60_000).state).toBe('ripe');
    expect(plotAt(plot(2), farm, FIXTURE_NOW_MS + 20 * 60_000).stage).toBe(3);
    expect(plotAt(plot(2), farm, FIXTURE_NOW_MS + (20 + 720) * 60_000).state).toBe('withered');
    expect(plotAt(plot(2), farm, FIXTURE_NOW_MS + 10 * 60_000).stage).toBe(2);
  });
});

describe('watering', () => {
  it('says how long until watering opens, and nothing when it is open', () => {
    expect(waterWaitText(plotAt(plot(3), farm, FIXTURE_NOW_MS))).toBe('あと7時間30分00秒で水やりできます');
    expect(waterWaitText(plotAt(plot(2), farm, FIXTURE_NOW_MS))).toBeNull();
    // The window opens on the page clock (the crop is still growing then).
    const later = { ...plot(3), readyAt: new Date(FIXTURE_NOW_MS + 600 * 60_000).toISOString() };
    expect(plotAt(later, farm, FIXTURE_NOW_MS + 450 * 60_000).canWater).toBe(true);
  });
});

describe('the daily cap', () => {
  it('says when a harvest gives nothing, or less, and nothing when it gives all', () => {
    expect(capNotice(5, { ...farm.today, coins: 30 })).toBe('今日の上限に達しているため、コインは増えません');
    expect(capNotice(5, { ...farm.today, coins: 27 })).toBe('今日の上限まであと3コインのため、もらえるのは3コインです');
    expect(capNotice(5, farm.today)).toBeNull();
  });
});

describe('grow times', () => {
  it('reads minutes in Japanese units', () => {
    expect(growTimeText(30)).toBe('30分');
    expect(growTimeText(90)).toBe('1時間30分');
    expect(growTimeText(1440)).toBe('24時間');
  });
});

describe('the expected picture of an intention', () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return intentionOf(data)!;
  };

  it('plants a seed on an empty plot, growing from now', () => {
    const next = expectedFarm(farm, form({ intent: 'plant', plotNo: '1', seedId: 'tomato' }), FIXTURE_NOW_MS);
    const planted = next.plots[0];
    expect(planted.state).toBe('growing');
    expect(planted.seed?.name).toBe('トマト');
    expect(Date.parse(planted.readyAt!) - FIXTURE_NOW_MS).toBe(180 * 60_000);
    expect(plotAt(planted, next, FIXTURE_NOW_MS).canWater).toBe(true);
  });

  it('pictures nothing for a locked seed or a plot in another state', () => {
    expect(expectedFarm(farm, form({ intent: 'plant', plotNo: '1', seedId: 'pumpkin' }), FIXTURE_NOW_MS)).toBe(farm);
    expect(expectedFarm(farm, form({ intent: 'water', plotNo: '3' }), FIXTURE_NOW_MS)).toBe(farm);
    expect(expectedFarm(farm, form({ intent: 'harvest', plotNo: '2' }), FIXTURE_NOW_MS)).toBe(farm);
    expect(expectedFarm(farm, form({ intent: 'plant', plotNo: '9', seedId: 'tomato' }), FIXTURE_NOW_MS)).toBe(farm);
  });

  it('waters: shorter time to harvest, and watering closed', () => {
    const next = expectedFarm(farm, form({ intent: 'water', plotNo: '2' }), FIXTURE_NOW_MS);
    const watered = plotAt(next.plots[1], next, FIXTURE_NOW_MS);
    expect(watered.timeLeftMs).toBe(15 * 60_000); // 20 minutes left, 25 % off
    expect(watered.canWater).toBe(false);
    expect(waterWaitText(watered)).toBe('あと8時間00分00秒で水やりできます');
  });

  it('harvests within the cap, and clears a withered plot', () => {
    const harvested = expectedFarm(farm, form({ intent: 'harvest', plotNo: '4' }), FIXTURE_NOW_MS);
    expect(harvested.plots[3].state).toBe('empty');
    expect(harvested.today.coins).toBe(16);
    const capped = expectedFarm(
      { ...farm, today: { ...farm.today, coins: 28 } },
      form({ intent: 'harvest', plotNo: '4' }),
      FIXTURE_NOW_MS,
    );
    expect(capped.today.coins).toBe(30);
    expect(expectedFarm(farm, form({ intent: 'clear', plotNo: '5' }), FIXTURE_NOW_MS).plots[4].state).toBe('empty');
  });

  it('gives a fresh key per tap', () => {
    expect(tapKey()).not.toBe(tapKey());
    expect(tapKey()).toMatch(/^[0-9a-f-]{32,36}$/);
  });
});
