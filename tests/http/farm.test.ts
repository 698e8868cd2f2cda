// The farm and friends over HTTP against the built shop (decisions 044, 045): members only, intentions
// only, the server's clock (moved forward through /dev/farm-clock, FARM_CLOCK_ADJUSTABLE in the test shop),
// a retried key answering the first answer, Japanese refusals, the friend link for a visitor (sign-in
// first, the invitation cookie kept), another member's friendship refused (IDOR), the per-member rate.
import { describe, it, expect, beforeAll } from 'vitest';
import { advanceFarmClock, cookieFrom, get, memberApi, shopUrl, signUpMember, type SignedUpMember } from '#tests/http';

let alice: SignedUpMember;
let bob: SignedUpMember;
let carol: SignedUpMember;
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all(['farm-alice', 'farm-bob', 'farm-carol'].map((l) => signUpMember(l)));
});

describe('the farm', () => {
  it('is for members: 401 from the API, sign-in first from the pages (the friend link keeps its code)', async () => {
    expect(await memberApi('/me/farm')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    const page = await get('/app/farm');
    expect(page.status).toBe(302);
    expect(page.location).toBe('/auth/sign_in?redirect=%2Fapp%2Ffarm');
    const link = await get('/app/friends/add?code=ABCD2345');
    expect(link.status).toBe(302);
    expect(link.location).toBe('/auth/sign_in?redirect=%2Fapp%2Ffriends%2Fadd%3Fcode%3DABCD2345');
    // A visitor who signs up from a friend link is that member's invitee too (decision 045).
    expect(link.headers.get('set-cookie')).toMatch(/oripa_invite=ABCD2345;.*HttpOnly/i);
    expect(link.headers.get('x-robots-tag') ?? '').toMatch(/noindex/);
  });

  it('plants, waters once per window and harvests on the server clock; a retried key answers the first answer', async () => {
    const farm = await memberApi('/me/farm', { member: alice });
    expect(farm.status).toBe(200);
    expect(farm.body.plots.map((p: { state: string }) => p.state)).toEqual([
      'empty',
      'empty',
      'empty',
      'empty',
      'locked',
      'locked',
      'locked',
      'locked',
    ]);
    const plant = await memberApi('/me/farm/plots/1/plant', {
      member: alice,
      method: 'POST',
      key: 'farm-alice-plant-1',
      json: { seedId: 'radish' },
    });
    expect(plant.status).toBe(200);
    expect(plant.body).toMatchObject({ action: 'plant', plotNo: 1, coins: 0 });
    expect(plant.body.farm.plots[0]).toMatchObject({ plotNo: 1, state: 'growing', seed: { id: 'radish' } });
    const replay = await memberApi('/me/farm/plots/1/plant', {
      member: alice,
      method: 'POST',
      key: 'farm-alice-plant-1',
      json: { seedId: 'radish' },
    });
    expect(replay).toEqual(plant);
    // Without the key, the same intention is refused: the plot is taken.
    const again = await memberApi('/me/farm/plots/1/plant', {
      member: alice,
      method: 'POST',
      json: { seedId: 'carrot' },
    });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'FARM_PLOT_NOT_EMPTY' } } });

    const water = await memberApi('/me/farm/plots/1/water', { member: alice, method: 'POST' });
    expect(water.status).toBe(200);
    expect(Date.parse(water.body.farm.plots[0].readyAt)).toBeLessThan(Date.parse(plant.body.farm.plots[0].readyAt));
    const tooSoon = await memberApi('/me/farm/plots/1/water', { member: alice, method: 'POST' });
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.error).toMatchObject({ code: 'FARM_WATER_TOO_SOON' });
    expect(tooSoon.body.error.message).toMatch(/^この畑の水やりは8時間に1回までです。.+から水やりできます。$/);
    const early = await memberApi('/me/farm/plots/1/harvest', { member: alice, method: 'POST' });
    expect(early).toMatchObject({ status: 409, body: { error: { code: 'FARM_NOT_RIPE' } } });

    await advanceFarmClock(30);
    const harvest = await memberApi('/me/farm/plots/1/harvest', {
      member: alice,
      method: 'POST',
      key: 'farm-alice-h1',
    });
    expect(harvest.status).toBe(200);
    expect(harvest.body).toMatchObject({ action: 'harvest', coins: 1, cappedCoins: 0, farm: { today: { coins: 1 } } });
    expect(
      (await memberApi('/me/farm/plots/1/harvest', { member: alice, method: 'POST', key: 'farm-alice-h1' })).body,
    ).toEqual(harvest.body);
    const entries = await memberApi('/me/wallet/entries', { member: alice });
    expect(entries.body.items.filter((e: { reason: string }) => e.reason === 'farm')).toEqual([
      expect.objectContaining({ reasonLabel: 'ファーム報酬', amount: 1 }),
    ]);
  });

  it("opens in the native app's web view with the app's one-time token, signed in, at phone width", async () => {
    const app = { 'user-agent': 'Mozilla/5.0 (Linux; Android 15; Pixel 8) OripaStellaApp/1.0' };
    const member = await signUpMember('farm-app');
    const { token } = (await memberApi('/me/app-handoffs', { member, method: 'POST' })).body as { token: string };
    const link = `/auth/action?mode=customToken&oobCode=${token}&continueUrl=${encodeURIComponent('/app/farm')}`;
    const opened = await get(link, { headers: app });
    expect([opened.status, opened.location]).toEqual([302, '/app/farm']);
    const farm = await get('/app/farm', { cookie: cookieFrom(opened.headers), headers: app });
    expect(farm.status).toBe(200);
    expect(farm.body).toContain('<title>ファーム | ');
    expect(farm.body).toMatch(/畑1：空き/);
    expect(farm.body).toContain('width=device-width');
    expect(farm.headers.get('x-robots-tag') ?? farm.body).toMatch(/noindex/);
  });

  it('refuses bad intentions with Japanese 4xx answers, never a 500', async () => {
    const locked = await memberApi('/me/farm/plots/6/plant', {
      member: carol,
      method: 'POST',
      json: { seedId: 'radish' },
    });
    expect(locked).toMatchObject({ status: 409, body: { error: { code: 'FARM_PLOT_LOCKED' } } });
    expect((await memberApi('/me/farm/plots/0/water', { member: carol, method: 'POST' })).status).toBe(400);
    expect((await memberApi('/me/farm/plots/abc/water', { member: carol, method: 'POST' })).status).toBe(400);
    const unknown = await memberApi('/me/farm/plots/1/plant', {
      member: carol,
      method: 'POST',
      json: { seedId: '<x>' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/種/);
    expect((await memberApi('/me/farm/plots/1/plant', { member: carol, method: 'POST', json: {} })).status).toBe(400);
  });
});

describe('friends', () => {
  it('adds a friend by code, waters their farm once a day for both, and refuses a third member (IDOR)', async () => {
    const aliceView = await memberApi('/me/friends', { member: alice });
    expect(aliceView.body.link).toBe(`${shopUrl()}/app/friends/add?code=${aliceView.body.code}`);
    const sent = await memberApi('/me/friends/requests', {
      member: bob,
      method: 'POST',
      json: { code: aliceView.body.code },
    });
    expect(sent).toMatchObject({ status: 200, body: { status: 'pending' } });
    const id = sent.body.friendshipId as number;
    const self = await memberApi('/me/friends/requests', {
      member: alice,
      method: 'POST',
      json: { code: aliceView.body.code },
    });
    expect(self).toMatchObject({ status: 409, body: { error: { code: 'FRIEND_SELF' } } });
    // Carol can neither answer, remove nor water through someone else's friendship.
    for (const path of [`/me/friends/${id}/accept`, `/me/friends/${id}/decline`, `/me/friends/${id}/water`])
      expect((await memberApi(path, { member: carol, method: 'POST' })).status).toBe(404);
    expect((await memberApi(`/me/friends/${id}`, { member: carol, method: 'DELETE' })).status).toBe(404);

    const accepted = await memberApi(`/me/friends/${id}/accept`, { member: alice, method: 'POST' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.friends).toEqual([expect.objectContaining({ friendshipId: id, wateredToday: false })]);
    const watered = await memberApi(`/me/friends/${id}/water`, { member: bob, method: 'POST' });
    expect(watered).toMatchObject({ status: 200, body: { action: 'friend_water', coins: 1, friendCoins: 1 } });
    const twice = await memberApi(`/me/friends/${id}/water`, { member: bob, method: 'POST' });
    expect(twice).toMatchObject({ status: 409, body: { error: { code: 'FARM_FRIEND_ALREADY_WATERED' } } });
    expect((await memberApi('/me/friends', { member: bob })).body.friends[0]).toMatchObject({ wateredToday: true });
    const removed = await memberApi(`/me/friends/${id}`, { member: alice, method: 'DELETE' });
    expect(removed).toMatchObject({ status: 200, body: { friends: [] } });
  });

  it('limits each member’s farm and friend actions per minute (429 with Retry-After)', async () => {
    const dave = await signUpMember('farm-dave');
    const answers = [];
    for (let i = 0; i < 61; i++)
      answers.push(await memberApi('/me/farm/plots/8/water', { member: dave, method: 'POST' }));
    expect(answers.slice(0, 60).every((a) => a.status === 409)).toBe(true);
    expect(answers[60]).toMatchObject({ status: 429, body: { error: { code: 'FARM_TOO_FAST' } } });
  });

  it('documents every farm and friends operation in the OpenAPI document', async () => {
    const document = await memberApi('/openapi.json');
    const paths = Object.keys(document.body.paths);
    for (const path of [
      '/me/farm',
      '/me/farm/plots/{plotNo}/plant',
      '/me/farm/plots/{plotNo}/water',
      '/me/farm/plots/{plotNo}/harvest',
      '/me/farm/plots/{plotNo}/clear',
      '/me/friends',
      '/me/friends/requests',
      '/me/friends/{friendshipId}/accept',
      '/me/friends/{friendshipId}/decline',
      '/me/friends/{friendshipId}',
      '/me/friends/{friendshipId}/water',
    ])
      expect(paths).toContain(path);
  });
});
