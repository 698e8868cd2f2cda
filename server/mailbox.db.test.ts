// The welcome mail (decision 034): written by identity's user-creation hook, whatever the sign-up path
// (every path creates the member through better-auth's internal adapter), once, with the sign-up gift
// when SIGNUP_GIFT_COINS is above 0, claimable within SIGNUP_GIFT_CLAIM_DAYS.
import { describe, it, expect } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { identityTestServices } from '#tests/identity';
import { claimMailAttachment, listMails } from '#modules/mailbox';
import { getBalance } from '#modules/wallet';
import { mailClaimRules, sendWelcomeMail } from './mailbox';

const handle = useTestDatabase('welcome-mail');
const DAY = 86_400_000;

async function createdMember(settings: Record<string, string>, method: 'phone-number' | 'admin') {
  const services = identityTestServices(handle, settings);
  const context = await services.auth.$context;
  const user = await context.internalAdapter.createUser(
    {
      email: `welcome-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.jp`,
      name: 'ようこそ',
      emailVerified: true,
    },
    { method },
  );
  return { services, memberId: user.id };
}

describe('the welcome mail', () => {
  it('arrives when a member is created (a phone sign-up), with the sign-up gift, once', async () => {
    const { services, memberId } = await createdMember(
      { SIGNUP_GIFT_COINS: '50', SIGNUP_GIFT_CLAIM_DAYS: '10' },
      'phone-number',
    );
    const [welcome] = (await listMails(handle.db, memberId, 'personal', { limit: 5 })).items;
    expect(welcome).toMatchObject({ category: 'welcome', read: false, attachment: { coins: 50, claimed: false } });
    const deadline = welcome!.attachment!.claimUntil!.getTime();
    expect(Math.abs(deadline - (Date.now() + 10 * DAY))).toBeLessThan(60_000);
    // A second write (a retried hook) adds nothing.
    expect(await sendWelcomeMail(handle.db, services.config, memberId)).toMatchObject({ created: false });
    expect((await listMails(handle.db, memberId, 'personal', { limit: 5 })).items).toHaveLength(1);
    expect(await claimMailAttachment(handle.db, memberId, welcome!.id, mailClaimRules(services.config))).toMatchObject({
      ok: true,
      coins: 50,
    });
    expect((await getBalance(handle.db, memberId)).free).toBe(50);
  });

  it('has no present when the gift is 0 (the default; an operator-made account)', async () => {
    const { memberId } = await createdMember({}, 'admin');
    const [welcome] = (await listMails(handle.db, memberId, 'personal', { limit: 5 })).items;
    expect(welcome).toMatchObject({ category: 'welcome', attachment: null });
  });
});
