// Farm views for the components' tests: a farm at a fixed server time with one plot in each state, as
// farmPageLoader would answer it (decision 044). Test-only: nothing in the app imports this file.
import type { FarmPlotView, FarmView, FriendsLoaderData, FriendView } from '~/lib/farm-contract';

/** The server's clock in the fixtures: 2026-11-25 12:00 in Japan. */
export const FIXTURE_NOW = '2026-11-25T03:00:00.000Z';
export const FIXTURE_NOW_MS = Date.parse(FIXTURE_NOW);
const at = (minutes: number) => new Date(FIXTURE_NOW_MS + minutes * 60_000).toISOString();

const emptyPlot = (plotNo: number): FarmPlotView => ({
  plotNo,
  state: 'empty',
  unlockLevel: null,
  seed: null,
  rewardCoins: null,
  plantedAt: null,
  readyAt: null,
  witherAt: null,
  growth: 0,
  stage: null,
  canWater: false,
  nextWaterAt: null,
  waterings: 0,
});

/** Plot 1 empty; 2 growing, watering open; 3 growing, watered 30 minutes ago; 4 ripe; 5 withered; 6 locked (Lv.5). */
export function fixtureFarm(overrides: Partial<FarmView> = {}): FarmView {
  return {
    paused: false,
    now: FIXTURE_NOW,
    day: '2026-11-25',
    nextDayAt: '2026-11-25T15:00:00.000Z',
    level: 3,
    plots: [
      emptyPlot(1),
      {
        ...emptyPlot(2),
        state: 'growing',
        seed: { id: 'radish', name: 'ラディッシュ', art: 'radish' },
        rewardCoins: 2,
        plantedAt: at(-10),
        readyAt: at(20),
        witherAt: at(20 + 720),
        growth: 1 / 3,
        stage: 1,
        canWater: true,
      },
      {
        ...emptyPlot(3),
        state: 'growing',
        seed: { id: 'tomato', name: 'トマト', art: 'tomato' },
        rewardCoins: 5,
        plantedAt: at(-60),
        readyAt: at(125),
        witherAt: at(125 + 720),
        growth: 0.32,
        stage: 1,
        canWater: false,
        nextWaterAt: at(450),
        waterings: 1,
      },
      {
        ...emptyPlot(4),
        state: 'ripe',
        seed: { id: 'carrot', name: 'にんじん', art: 'carrot' },
        rewardCoins: 4,
        plantedAt: at(-120),
        readyAt: at(-60),
        witherAt: at(660),
        growth: 1,
        stage: 3,
      },
      {
        ...emptyPlot(5),
        state: 'withered',
        seed: { id: 'corn', name: 'とうもろこし', art: 'corn' },
        rewardCoins: 6,
        plantedAt: at(-2000),
        readyAt: at(-1500),
        witherAt: at(-780),
        growth: 1,
        stage: 4,
      },
      { ...emptyPlot(6), state: 'locked', unlockLevel: 5 },
    ],
    seeds: [
      {
        id: 'radish',
        name: 'ラディッシュ',
        art: 'radish',
        growMinutes: 30,
        rewardCoins: 2,
        unlockLevel: 1,
        locked: false,
      },
      { id: 'tomato', name: 'トマト', art: 'tomato', growMinutes: 180, rewardCoins: 5, unlockLevel: 1, locked: false },
      {
        id: 'pumpkin',
        name: 'かぼちゃ',
        art: 'pumpkin',
        growMinutes: 1440,
        rewardCoins: 20,
        unlockLevel: 8,
        locked: true,
      },
    ],
    today: { coins: 12, cap: 30, harvests: 3, waterings: 2, friendWaterings: 0 },
    streak: 4,
    rules: {
      waterCooldownMinutes: 480,
      waterSpeedupPercent: 25,
      witherAfterMinutes: 720,
      dailyCoinCap: 30,
      friendWaterCoins: 1,
    },
    ...overrides,
  };
}

export const fixtureFriends: FriendView[] = [
  { friendshipId: 11, nickname: 'はなこ', since: '2026-11-20T03:00:00.000Z', wateredToday: false, growingPlots: 2 },
  { friendshipId: 12, nickname: 'たろう', since: '2026-11-21T03:00:00.000Z', wateredToday: true, growingPlots: 1 },
];

export function fixtureFriendsPage(overrides: Partial<FriendsLoaderData> = {}): FriendsLoaderData {
  return {
    friends: {
      code: 'AB12CD34',
      link: 'https://shop.example/app/friends/add?code=AB12CD34',
      share: { line: 'https://line.me/R/share?text=x', x: 'https://x.com/intent/post?text=x' },
      limit: 30,
      friends: fixtureFriends,
      incoming: [{ friendshipId: 21, nickname: 'じろう', requestedAt: '2026-11-24T03:00:00.000Z' }],
      outgoing: [{ friendshipId: 31, nickname: 'さぶろう', requestedAt: '2026-11-24T04:00:00.000Z' }],
      friendWaterCoins: 1,
    },
    codeFromLink: null,
    codeOwner: null,
    farmPaused: false,
    ...overrides,
  };
}
