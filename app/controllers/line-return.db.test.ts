// /mypage/backfromline(campaign): what the page shows after LINE sends the member back, and the
// campaign reward — once per member and once per LINE account, as a ledger entry (the invariants are
// checked after every test).
import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { identityTestServices, signUpConfirmed, TEST_ORIGIN as ORIGIN } from '#tests/identity';
import type { ShopServices } from '#server/services';
import { accounts } from '#db/schema';
import { LINE_PROVIDER_ID } from '#modules/identity/server';
import { getBalance } from '#modules/wallet';
import type { ShopRequest } from '#server/context';
import { lineReturnLoader, type LineReturnData } from './line-return.server';
import { eq } from 'drizzle-orm';

const handle = testDatabase('line_return', { poolSize: 4, invariants: 'afterEach' });
let campaign: ShopServices;
let noCampaign: ShopServices;

const servicesWith = (extra: Record<string, string>) =>
  identityTestServices(handle, {
    LINE_CHANNEL_ID: '1650000001',
    LINE_CHANNEL_SECRET: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    ...extra,
  });

beforeAll(() => {
  campaign = servicesWith({ LINE_CAMPAIGN_ID: 'line-friends-2026', LINE_CAMPAIGN_REWARD_COINS: '300' });
  noCampaign = servicesWith({});
});

let sequence = 0;
async function memberWithLine(services: ShopServices, lineUserId: string) {
  const email = `line-return-${Date.now().toString(36)}-${++sequence}@example.jp`;
  const member = await signUpConfirmed(services.auth, services.config.AUTH_SECRET, {
    email,
    password: 'password-1234',
    name: `LINE会員${sequence}`,
  });
  // As better-auth's callback records a link (the link flow itself: modules/identity/line.db.test.ts).
  await handle.db.insert(accounts).values({
    id: randomUUID(),
    accountId: lineUserId,
    providerId: LINE_PROVIDER_ID,
    userId: member.id,
  });
  return member;
}

const shopOf = (services: ShopServices, id: string): ShopRequest =>
  ({ requestId: 'test', nonce: 'n', member: { id, role: 'user' }, services }) as ShopRequest;

async function back(services: ShopServices, memberId: string, query: string) {
  const result = (await lineReturnLoader(
    shopOf(services, memberId),
    new Request(`${ORIGIN}/mypage/backfromlinecampaign${query}`),
    'campaign',
  )) as unknown as { data: LineReturnData; init?: { status?: number } };
  return { status: result.init?.status ?? 200, ...result.data };
}

describe('the LINE campaign', () => {
  it('rewards a finished link once per member, however often the page is opened', async () => {
    const member = await memberWithLine(campaign, `U${randomUUID().replaceAll('-', '')}`);
    expect(await back(campaign, member.id, '?done=1')).toMatchObject({ state: 'linked', rewarded: 'now', reward: 300 });
    expect(await back(campaign, member.id, '?done=1')).toMatchObject({ state: 'linked', rewarded: 'before' });
    expect((await getBalance(handle.db, member.id)).free).toBe(300);
  });

  it('rewards a LINE account once, even when it is unlinked and linked to another member', async () => {
    const lineUserId = `U${randomUUID().replaceAll('-', '')}`;
    const first = await memberWithLine(campaign, lineUserId);
    expect(await back(campaign, first.id, '?done=1')).toMatchObject({ rewarded: 'now' });
    await handle.db.delete(accounts).where(eq(accounts.accountId, lineUserId));
    const second = await memberWithLine(campaign, lineUserId);
    expect(await back(campaign, second.id, '?done=1')).toMatchObject({ state: 'linked', rewarded: 'before' });
    expect((await getBalance(handle.db, second.id)).free).toBe(0);
  });

  it('without a campaign, links without a reward; a refused link shows why with a 400', async () => {
    const member = await memberWithLine(noCampaign, `U${randomUUID().replaceAll('-', '')}`);
    expect(await back(noCampaign, member.id, '?done=1')).toMatchObject({
      state: 'linked',
      rewarded: 'none',
      reward: 0,
    });
    expect((await getBalance(handle.db, member.id)).free).toBe(0);
    const refused = await back(campaign, member.id, '?error=access_denied');
    expect(refused).toMatchObject({ state: 'failed', status: 400 });
  });

  it('shows the start page to a member who has not linked yet, with the reward on offer', async () => {
    const email = `line-start-${Date.now().toString(36)}@example.jp`;
    const member = await signUpConfirmed(campaign.auth, campaign.config.AUTH_SECRET, {
      email,
      password: 'password-1234',
      name: 'まだ未連携',
    });
    expect(await back(campaign, member.id, '')).toMatchObject({
      state: 'start',
      available: true,
      reward: 300,
      linked: false,
    });
    // Coming back with done=1 but no link recorded (a forged address) rewards nothing.
    expect(await back(campaign, member.id, '?done=1')).toMatchObject({ state: 'start', linked: false });
    expect((await getBalance(handle.db, member.id)).free).toBe(0);
  });
});
