// Invitations against a real database (decision 038): the code, the invitation attached once, the reward
// only after BOTH a verified phone and a first purchase, once for both members under concurrent settles,
// the monthly cap per inviter in Japan time (the server in UTC) also under concurrency, and the refusals:
// self-invitation (the same member, the same mailbox), shared phones and shared devices.
import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { invitations, mails, paymentOrders, riskFingerprints, sessions, users } from '#db/schema';
import { phoneFingerprintOf } from '#modules/risk';
import {
  INVITATION_CODE_ALPHABET,
  attachInvitation,
  invitationCodeOf,
  invitationOverviewOf,
  jstMonthOf,
  normaliseEmail,
  normaliseInvitationCode,
  settleDueInvitations,
  settleInvitation,
  type InvitationRules,
} from './index';

const handle = useTestDatabase('invitation', { poolSize: 10 });

const RULES: InvitationRules = { rewardCoins: 500, monthlyCap: 2, claimDays: 30, fingerprintKey: Buffer.alloc(32, 7) };
/** An instant given as Japan time (the server runs in UTC: the offset is written out). */
const jst = (text: string) => new Date(`${text}+09:00`);

let phoneSequence = 10_000_000;
const nextPhone = () => `+8190${String(++phoneSequence).padStart(8, '0')}`;

async function verifyPhone(memberId: string, phone = nextPhone()) {
  await handle.db.update(users).set({ phoneNumber: phone, phoneNumberVerified: true }).where(eq(users.id, memberId));
  return phone;
}

async function purchase(memberId: string, at = new Date()) {
  await handle.db.insert(paymentOrders).values({
    id: randomUUID(),
    memberId,
    coinPackId: 'test-pack',
    method: 'sandbox',
    status: 'paid',
    amountJpy: 1000,
    paidCoins: 1000,
    bonusCoins: 0,
    packName: 'テスト 1,000コイン',
    receiptNo: `T-${randomUUID().slice(0, 12)}`,
    creditedAt: at,
    expiresAt: new Date(at.getTime() + 3600_000),
  });
}

/** An inviter and a freshly attached invitee. */
async function invited(inviter?: string) {
  const from = inviter ?? (await createMember(handle.db, { name: '招待する人' }));
  const invitee = await createMember(handle.db, { name: '招待された人' });
  const outcome = await attachInvitation(handle.db, {
    inviteeId: invitee,
    code: await invitationCodeOf(handle.db, from),
  });
  expect(outcome.ok).toBe(true);
  return { inviter: from, invitee };
}

/** Phone and purchase done: ready to settle. */
async function qualified(inviter?: string) {
  const pair = await invited(inviter);
  await verifyPhone(pair.invitee);
  await purchase(pair.invitee);
  return pair;
}

const invitationMails = (memberId: string) =>
  handle.db
    .select()
    .from(mails)
    .where(and(eq(mails.memberId, memberId), eq(mails.category, 'invitation')));

const invitationOf = async (invitee: string) =>
  (await handle.db.select().from(invitations).where(eq(invitations.inviteeId, invitee)))[0]!;

describe('codes', () => {
  it('gives each member one short code of unambiguous characters, the same every time', async () => {
    const a = await createMember(handle.db);
    const b = await createMember(handle.db);
    const codeA = await invitationCodeOf(handle.db, a);
    expect(codeA).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    for (const ch of codeA) expect(INVITATION_CODE_ALPHABET).toContain(ch);
    expect(await invitationCodeOf(handle.db, a)).toBe(codeA);
    expect(await invitationCodeOf(handle.db, b)).not.toBe(codeA);
  });

  it('reads typed codes without regard to case, width, spaces and dashes', () => {
    expect(normaliseInvitationCode(' ａｂｃｄ-２３４５ ')).toBe('ABCD2345');
    expect(normaliseInvitationCode('abcd2345')).toBe('ABCD2345');
    expect(normaliseInvitationCode('ABCD0123')).toBeNull(); // 0 and 1 are not in the alphabet
    expect(normaliseInvitationCode('ABC')).toBeNull();
    expect(normaliseInvitationCode(42)).toBeNull();
  });

  it('reads one mailbox however its address is spelt', () => {
    expect(normaliseEmail('Ta.Ro+oripa@GoogleMail.com')).toBe('taro@gmail.com');
    expect(normaliseEmail('ta.ro+x@example.jp')).toBe('ta.ro@example.jp');
  });
});

describe('attaching', () => {
  it('attaches once: a second code is refused', async () => {
    const { invitee } = await invited();
    const other = await createMember(handle.db);
    const again = await attachInvitation(handle.db, {
      inviteeId: invitee,
      code: await invitationCodeOf(handle.db, other),
    });
    expect(again).toMatchObject({ ok: false, code: 'INVITATION_ALREADY_ATTACHED' });
  });

  it('refuses a bad or unknown code and the member’s own code', async () => {
    const member = await createMember(handle.db);
    expect(await attachInvitation(handle.db, { inviteeId: member, code: '!!' })).toMatchObject({
      code: 'INVITATION_CODE_INVALID',
    });
    expect(await attachInvitation(handle.db, { inviteeId: member, code: 'ZZZZZZZZ' })).toMatchObject({
      code: 'INVITATION_CODE_NOT_FOUND',
    });
    expect(
      await attachInvitation(handle.db, { inviteeId: member, code: await invitationCodeOf(handle.db, member) }),
    ).toMatchObject({ code: 'INVITATION_SELF' });
  });

  it('attaches the same mailbox under another spelling as refused (self): never rewarded', async () => {
    const inviter = await createMember(handle.db);
    const invitee = await createMember(handle.db);
    const local = `taro${Date.now()}`;
    await handle.db
      .update(users)
      .set({ email: `${local}@gmail.com` })
      .where(eq(users.id, inviter));
    await handle.db
      .update(users)
      .set({ email: `Ta.${local.slice(2)}+oripa@googlemail.com` })
      .where(eq(users.id, invitee));
    const outcome = await attachInvitation(handle.db, {
      inviteeId: invitee,
      code: await invitationCodeOf(handle.db, inviter),
    });
    expect(outcome).toMatchObject({ ok: true, refused: true });
    await verifyPhone(invitee);
    await purchase(invitee);
    expect(await settleInvitation(handle.db, invitee, RULES)).toEqual({ settled: false, reason: 'settled' });
    expect(await invitationOf(invitee)).toMatchObject({ outcome: 'refused', refusal: 'self' });
    expect(await invitationMails(inviter)).toHaveLength(0);
  });

  it('lets a new member enter a code by hand within 72 hours, before a first purchase', async () => {
    const inviter = await createMember(handle.db);
    const code = await invitationCodeOf(handle.db, inviter);
    const fresh = await createMember(handle.db);
    expect(await attachInvitation(handle.db, { inviteeId: fresh, code, lateEntry: true })).toMatchObject({ ok: true });
    const old = await createMember(handle.db);
    await handle.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 73 * 3600_000) })
      .where(eq(users.id, old));
    expect(await attachInvitation(handle.db, { inviteeId: old, code, lateEntry: true })).toMatchObject({
      code: 'INVITATION_TOO_LATE',
    });
    const buyer = await createMember(handle.db);
    await purchase(buyer);
    expect(await attachInvitation(handle.db, { inviteeId: buyer, code, lateEntry: true })).toMatchObject({
      code: 'INVITATION_TOO_LATE',
    });
  });

  it('limits typed codes to 10 an hour per member (guessing others’ codes)', async () => {
    const member = await createMember(handle.db);
    const now = new Date('2026-11-24T03:00:00Z');
    for (let i = 0; i < 10; i++)
      expect(
        await attachInvitation(handle.db, { inviteeId: member, code: 'ZZZZZZZZ', lateEntry: true, now }),
      ).toMatchObject({
        code: 'INVITATION_CODE_NOT_FOUND',
      });
    expect(
      await attachInvitation(handle.db, { inviteeId: member, code: 'ZZZZZZZZ', lateEntry: true, now }),
    ).toMatchObject({
      code: 'INVITATION_RATE_LIMITED',
    });
  });
});

describe('the reward', () => {
  it('waits for BOTH a verified phone and a first purchase', async () => {
    const phoneOnly = await invited();
    await verifyPhone(phoneOnly.invitee);
    expect(await settleInvitation(handle.db, phoneOnly.invitee, RULES)).toEqual({ settled: false, reason: 'waiting' });
    const buyOnly = await invited();
    await purchase(buyOnly.invitee);
    expect(await settleInvitation(handle.db, buyOnly.invitee, RULES)).toEqual({ settled: false, reason: 'waiting' });
    expect(await invitationMails(phoneOnly.inviter)).toHaveLength(0);
    expect(await invitationMails(buyOnly.invitee)).toHaveLength(0);
    // the second condition arrives: now it settles
    await purchase(phoneOnly.invitee);
    expect(await settleInvitation(handle.db, phoneOnly.invitee, RULES)).toMatchObject({ outcome: 'rewarded' });
  });

  it('rewards both members once under 10 concurrent settles, as mailbox attachments', async () => {
    const { inviter, invitee } = await qualified();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => settleInvitation(handle.db, invitee, RULES, new Date())),
    );
    expect(results.filter((r) => r.settled)).toHaveLength(1);
    for (const member of [inviter, invitee]) {
      const sent = await invitationMails(member);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        dedupeKey: `invitation:${invitee}`,
        attachmentCoins: 500,
        attachmentReason: 'invitation',
      });
      expect(sent[0]!.claimUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    }
    expect(await invitationOf(invitee)).toMatchObject({ outcome: 'rewarded', rewardCoins: 500 });
  });

  it('is found by the job from the purchase feed, and a second run settles nothing more', async () => {
    const { inviter, invitee } = await invited();
    await verifyPhone(invitee);
    await settleDueInvitations(handle.db, RULES);
    await purchase(invitee);
    const [first, second] = await Promise.all([
      settleDueInvitations(handle.db, RULES),
      settleDueInvitations(handle.db, RULES),
    ]);
    expect(first.rewarded + second.rewarded).toBeGreaterThanOrEqual(1);
    await settleDueInvitations(handle.db, RULES);
    expect(await invitationMails(inviter)).toHaveLength(1);
    expect(await invitationMails(invitee)).toHaveLength(1);
  });
});

describe('the monthly cap (Japan time)', () => {
  it('turns at 0:00 JST on the 1st, which is 15:00 UTC the day before', () => {
    expect(process.env.TZ ?? 'UTC').not.toBe('Asia/Tokyo');
    const november = jstMonthOf(jst('2026-11-30T23:59:59'));
    expect(november.start).toEqual(new Date('2026-10-31T15:00:00Z'));
    expect(november.end).toEqual(new Date('2026-11-30T15:00:00Z'));
    expect(jstMonthOf(new Date('2026-11-30T15:00:00Z')).label).toBe('2026年12月');
    expect(jstMonthOf(new Date('2026-12-31T15:00:00Z')).label).toBe('2027年1月');
  });

  it('rewards at most the cap in a month, holds under concurrency, and opens again the next month', async () => {
    const inviter = await createMember(handle.db);
    const november = await Promise.all([1, 2, 3, 4].map(() => qualified(inviter)));
    const lastMinute = jst('2026-11-30T23:59:00');
    const results = await Promise.all(november.map((p) => settleInvitation(handle.db, p.invitee, RULES, lastMinute)));
    const outcomes = results.map((r) => (r.settled ? r.outcome : r.reason)).sort();
    expect(outcomes).toEqual(['capped', 'capped', 'rewarded', 'rewarded']);
    expect(await invitationMails(inviter)).toHaveLength(2);
    // the next Japan-time month starts at 15:00 UTC on 30 November
    const december = await qualified(inviter);
    expect(await settleInvitation(handle.db, december.invitee, RULES, new Date('2026-11-30T15:00:00Z'))).toMatchObject({
      outcome: 'rewarded',
    });
    const view = await invitationOverviewOf(handle.db, inviter, RULES, new Date('2026-11-30T15:00:00Z'));
    expect(view.rewardedThisMonth).toBe(1);
    expect(view.totals).toEqual({ invited: 5, rewarded: 3 });
    expect(view.invitees.map((i) => i.state).sort()).toEqual(['capped', 'capped', 'rewarded', 'rewarded', 'rewarded']);
  });
});

describe('abuse', () => {
  it('refuses a phone number another invitee of the same inviter verified before', async () => {
    const inviter = await createMember(handle.db);
    const first = await invited(inviter);
    const phone = await verifyPhone(first.invitee);
    await settleInvitation(handle.db, first.invitee, RULES); // waiting, but the phone is recorded (hashed)
    await verifyPhone(first.invitee); // moves to another number: the old one is free again
    const second = await invited(inviter);
    await verifyPhone(second.invitee, phone);
    await purchase(second.invitee);
    expect(await settleInvitation(handle.db, second.invitee, RULES)).toMatchObject({
      outcome: 'refused',
      refusal: 'shared_phone',
    });
    expect(await invitationMails(inviter)).toHaveLength(0);
    expect(await invitationMails(second.invitee)).toHaveLength(0);
  });

  it('refuses a phone number the inviter was seen with (the signals job’s fingerprints)', async () => {
    const { inviter, invitee } = await invited();
    const phone = await verifyPhone(invitee);
    await purchase(invitee);
    const now = new Date();
    await handle.db.insert(riskFingerprints).values(
      [inviter, invitee].map((memberId) => ({
        kind: 'phone' as const,
        keyHash: phoneFingerprintOf(RULES.fingerprintKey, phone),
        memberId,
        firstSeen: now,
        lastSeen: now,
      })),
    );
    expect(await settleInvitation(handle.db, invitee, RULES)).toMatchObject({ refusal: 'shared_phone' });
  });

  it('refuses a shared device (the same client address and browser in both members’ sessions)', async () => {
    const { inviter, invitee } = await qualified();
    const expiresAt = new Date(Date.now() + 86_400_000);
    const device = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1', expiresAt };
    await handle.db.insert(sessions).values([
      { id: `s_${randomUUID()}`, token: randomUUID(), userId: inviter, ...device },
      { id: `s_${randomUUID()}`, token: randomUUID(), userId: invitee, ...device },
    ]);
    expect(await settleInvitation(handle.db, invitee, RULES)).toMatchObject({
      outcome: 'refused',
      refusal: 'shared_device',
    });
    const view = await invitationOverviewOf(handle.db, inviter, RULES);
    expect(view.invitees[0]).toMatchObject({ state: 'refused_suspicious', phoneVerified: true, purchased: true });
  });

  it('rewards different devices', async () => {
    const { inviter, invitee } = await qualified();
    const expiresAt = new Date(Date.now() + 86_400_000);
    await handle.db.insert(sessions).values([
      {
        id: `s_${randomUUID()}`,
        token: randomUUID(),
        userId: inviter,
        ipAddress: '203.0.113.7',
        userAgent: 'A',
        expiresAt,
      },
      {
        id: `s_${randomUUID()}`,
        token: randomUUID(),
        userId: invitee,
        ipAddress: '198.51.100.2',
        userAgent: 'A',
        expiresAt,
      },
    ]);
    expect(await settleInvitation(handle.db, invitee, RULES)).toMatchObject({ outcome: 'rewarded' });
  });
});

describe('the overview', () => {
  it('shows a member only their own invitees, with each state', async () => {
    const a = await createMember(handle.db);
    const b = await createMember(handle.db);
    const ofA = await invited(a);
    await verifyPhone(ofA.invitee);
    await invited(b);
    const viewA = await invitationOverviewOf(handle.db, a, RULES);
    const viewB = await invitationOverviewOf(handle.db, b, RULES);
    expect(viewA.invitees).toHaveLength(1);
    expect(viewA.invitees[0]).toMatchObject({ name: '招待された人', state: 'phone_verified' });
    expect(viewB.invitees).toHaveLength(1);
    expect(viewB.invitees[0]!.state).toBe('registered');
    expect(viewA.code).not.toBe(viewB.code);
    const inviteeView = await invitationOverviewOf(handle.db, ofA.invitee, RULES);
    expect(inviteeView.invitedBy).toEqual({ name: 'テスト会員', state: 'phone_verified' });
    expect(inviteeView.canEnterCode).toBe(false);
  });
});
