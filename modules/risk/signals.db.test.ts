// The fraud signals on a real database (decision 029): each kind is raised from real data (sessions,
// address books, draws, credited purchases, a chargeback through the sandbox provider), a re-run
// raises nothing twice, a cleared shared signal opens again only when more accounts join, and a
// decision (clear, hold, ban) commits with its audit entries in one transaction, or not at all.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES, createMember, createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { testAddressInput } from '#tests/shipping';
import { digestOf } from '#tests/audit-digest';
import { adminAuditLog, fraudSignals, paymentOrders, sessions, staffPermissions, users } from '#db/schema';
import { createMemberWithSession } from '#modules/identity';
import { createAddress, type AddressKeyring } from '#modules/shipping';
import { drawLots } from '#modules/draw';
import { processPaymentEvents, purchaseHoldOf, receiveWebhook, syncOrder } from '#modules/payments';
import { checkoutAsMember, sandboxHarness, type SandboxHarness } from '#modules/payments/testing';
import { riskSignalsJob } from '#server/jobs/risk';
import { capturingLogger } from '#server/jobs/test-support';
import { adminAccessOf, commandLineOperator, type Operator } from '#modules/admin';
import {
  computeSignals,
  countOpenSignals,
  decideSignalAsOperator,
  describeSignal,
  fingerprintKeyOf,
  listSignals,
  signalDecisionSchema,
  type RiskRules,
  type SignalKind,
} from '#modules/risk';

/** The shop the restriction notices name (decision 084). */
const site = { name: 'テストショップ', origin: 'http://localhost:3000' };

const handle = useTestDatabase('risk', { poolSize: 2 });
const keyring: AddressKeyring = [{ id: 'k1', secret: randomBytes(32) }];
const rules: RiskRules = {
  drawsPer24h: 5,
  coinsPer24h: 1_000_000,
  spendJpyPer24h: 1_000,
  accountsPerDevice: 3,
  accountsPerAddress: 2,
  accountsPerPhone: 2,
  fingerprintKey: fingerprintKeyOf('x'.repeat(40)),
  addressKeyring: keyring,
};
let sandbox: SandboxHarness;

beforeAll(() => {
  sandbox = sandboxHarness(handle.db);
});

const signalsOf = (memberId: string, kind?: SignalKind) =>
  handle.db
    .select()
    .from(fraudSignals)
    .where(and(eq(fraudSignals.memberId, memberId), kind ? eq(fraudSignals.kind, kind) : undefined));

async function sessionFrom(memberId: string, ip: string, userAgent: string) {
  await handle.db.insert(sessions).values({
    id: randomUUID(),
    token: randomUUID(),
    userId: memberId,
    expiresAt: new Date(Date.now() + 86_400_000),
    ipAddress: ip,
    userAgent,
  });
}

async function addAddress(memberId: string, overrides: Record<string, unknown> = {}) {
  const outcome = await createAddress(handle.db, keyring, memberId, testAddressInput(overrides));
  if (!outcome.ok) throw new Error(outcome.code);
}

async function account(role: 'user' | 'admin' | 'staff' = 'user') {
  const id = randomUUID().replaceAll('-', '');
  await createMemberWithSession(handle.db, {
    id,
    name: 'テスト',
    email: `${id}@example.jp`,
    sessionToken: randomUUID(),
    sessionExpiresAt: new Date(Date.now() + 86_400_000),
  });
  await handle.db.update(users).set({ role, twoFactorEnabled: true }).where(eq(users.id, id));
  return id;
}

async function operatorFor(id: string): Promise<Operator> {
  const access = await adminAccessOf(handle.db, id, { requestId: 'req-risk', address: '203.0.113.9' });
  if (!access.ok) throw new Error(`not an operator: ${access.reason}`);
  return access.operator;
}

describe('raising the signals', () => {
  it('flags every account on one device (address and browser) at the threshold, once per re-run', async () => {
    const ua = `Mozilla/5.0 risk-test ${randomUUID()}`;
    const [a, b, c] = [await createMember(handle.db), await createMember(handle.db), await createMember(handle.db)];
    await sessionFrom(a, '198.51.100.7', ua);
    await sessionFrom(b, '198.51.100.7', ua);
    // Another browser on the same address is another device.
    await sessionFrom(c, '198.51.100.7', `${ua} other`);
    await computeSignals(handle.db, rules);
    expect(await signalsOf(a, 'shared_device')).toEqual([]);
    await sessionFrom(c, '198.51.100.7', ua);
    await computeSignals(handle.db, rules);
    await computeSignals(handle.db, rules);
    for (const member of [a, b, c]) {
      const found = await signalsOf(member, 'shared_device');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ status: 'open', evidence: { count: 3 } });
      expect((found[0]!.evidence as { members: string[] }).members.sort()).toEqual([a, b, c].sort());
    }
    const text = describeSignal({
      kind: 'shared_device',
      memberId: a,
      evidence: (await signalsOf(a))[0]!.evidence as Record<string, unknown>,
    });
    expect(text.text).toBe('同じ端末（IPアドレスとブラウザ）から3アカウント');
    expect(text.others.sort()).toEqual([b, c].sort());
  });

  it('flags two accounts with one shipping address (written differently) and one phone, without storing either', async () => {
    const [a, b, d] = [await createMember(handle.db), await createMember(handle.db), await createMember(handle.db)];
    const town = `千代田${Math.floor(Math.random() * 9000) + 1000}-1`;
    const phone = `090${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
    await addAddress(a, { town, phone, name: '山田 太郎' });
    // Full-width digits, another name: the same place.
    await addAddress(b, {
      town: town.normalize('NFKC').replace(/\d/g, (x) => String.fromCharCode(x.charCodeAt(0) + 0xfee0)),
      name: '佐藤 花子',
      phone: `080${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`,
    });
    // Another place, the same phone number.
    await addAddress(d, { town: `港${town}`, phone });
    await computeSignals(handle.db, rules);
    await computeSignals(handle.db, rules);
    const [shared] = await signalsOf(a, 'shared_address');
    expect(shared).toMatchObject({ status: 'open', evidence: { count: 2 } });
    expect(await signalsOf(b, 'shared_address')).toHaveLength(1);
    expect(await signalsOf(d, 'shared_address')).toHaveLength(0);
    expect(await signalsOf(a, 'shared_phone')).toHaveLength(1);
    expect(await signalsOf(d, 'shared_phone')).toHaveLength(1);
    expect(await signalsOf(b, 'shared_phone')).toHaveLength(0);
    expect(
      describeSignal({ kind: 'shared_address', memberId: a, evidence: shared!.evidence as Record<string, unknown> })
        .text,
    ).toBe('同じ配送先に2アカウント');
    // Nothing of the address or the phone number is in the signal.
    const stored = JSON.stringify(await signalsOf(a));
    expect(stored).not.toContain(town);
    expect(stored).not.toContain(phone);
    expect(stored).not.toContain('千代田');
  });

  it('opens a cleared shared signal again when a further account joins, not on a mere re-run', async () => {
    const [a, b, c] = [await createMember(handle.db), await createMember(handle.db), await createMember(handle.db)];
    const town = `中央${Math.floor(Math.random() * 9000) + 1000}-2`;
    await addAddress(a, { town });
    await addAddress(b, { town });
    await computeSignals(handle.db, rules);
    const [signal] = await signalsOf(a, 'shared_address');
    const cleared = await decideSignalAsOperator(
      handle.db,
      commandLineOperator(),
      signal!.id,
      {
        decision: 'clear',
        note: '家族',
        banExpires: null,
      },
      site,
    );
    expect(cleared.ok).toBe(true);
    await computeSignals(handle.db, rules);
    expect((await signalsOf(a, 'shared_address'))[0]!.status).toBe('cleared');
    await addAddress(c, { town });
    await computeSignals(handle.db, rules);
    expect((await signalsOf(a, 'shared_address'))[0]).toMatchObject({ status: 'open', evidence: { count: 3 } });
  });

  it('flags draws over the threshold in 24 hours, one signal per day however often it runs', async () => {
    const member = await createMemberWithCoins(handle.db, { paid: 10_000 });
    const calm = await createMemberWithCoins(handle.db, { paid: 10_000 });
    const gachaId = await createPublishedPack(handle.db, { lots: 50, price: 100 });
    for (let i = 0; i < 5; i++) {
      const drawn = await drawLots(handle.db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 1,
        idempotencyKey: randomUUID(),
      });
      expect(drawn.ok).toBe(true);
    }
    await drawLots(handle.db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: calm,
      gachaId,
      count: 1,
      idempotencyKey: randomUUID(),
    });
    await computeSignals(handle.db, rules);
    await computeSignals(handle.db, rules);
    const found = await signalsOf(member, 'velocity_draws');
    expect(found).toHaveLength(1);
    expect(found[0]!.evidence).toMatchObject({ draws: 5, coins: 500, thresholdDraws: 5 });
    expect(await signalsOf(calm, 'velocity_draws')).toEqual([]);
  });

  it('flags purchases over the threshold and a chargeback, from the provider’s real events', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    const back = await sandbox.decide(redirectUrl, 'approve');
    await syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments, returnParams: back.searchParams });
    await computeSignals(db, rules);
    expect(await signalsOf(member, 'velocity_spend')).toHaveLength(1);
    expect(await signalsOf(member, 'chargeback')).toEqual([]);
    const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect((await sandbox.api('POST', `/payments/${order!.providerRef}/dispute`)).status).toBe(200);
    const webhook = await sandbox.waitForEvent('payment.disputed', orderId);
    const received = await receiveWebhook(db, sandbox.gateway, 'sandbox', {
      headers: new Headers(webhook.headers),
      rawBody: webhook.body,
    });
    await processPaymentEvents(db, sandbox.gateway, { rules: TEST_RULES.payments, ids: received.stored });
    await computeSignals(db, rules);
    await computeSignals(db, rules);
    const chargebacks = await signalsOf(member, 'chargeback');
    expect(chargebacks).toHaveLength(1);
    expect(chargebacks[0]).toMatchObject({ key: orderId, evidence: { orderId, amountJpy: 1000 } });
    expect(
      describeSignal({
        kind: 'chargeback',
        memberId: member,
        evidence: chargebacks[0]!.evidence as Record<string, unknown>,
      }).text,
    ).toContain('チャージバック 1,000円');
  });
});

describe('the job', () => {
  it('two runs at once (two instances) raise each signal once (PostgreSQL: two connections)', async () => {
    const ua = `Mozilla/5.0 race ${randomUUID()}`;
    const members = [await createMember(handle.db), await createMember(handle.db), await createMember(handle.db)];
    for (const m of members) await sessionFrom(m, '192.0.2.44', ua);
    await Promise.all([computeSignals(handle.db, rules), computeSignals(handle.db, rules)]);
    for (const m of members) expect(await signalsOf(m, 'shared_device')).toHaveLength(1);
  });

  it('risk.signals runs every 5 minutes with the settings, and a run on nothing new raises nothing', async () => {
    const job = riskSignalsJob({
      RISK_DRAWS_PER_24H: 1_000_000,
      RISK_COINS_PER_24H: 1_000_000_000,
      RISK_SPEND_JPY_PER_24H: 1_000_000_000,
      RISK_ACCOUNTS_PER_DEVICE: 3,
      RISK_ACCOUNTS_PER_ADDRESS: 2,
      RISK_ACCOUNTS_PER_PHONE: 2,
      AUTH_SECRET: 'x'.repeat(40),
      addressKeyring: keyring.map((k) => ({ id: k.id, secret: Buffer.from(k.secret) })),
    });
    expect(job).toMatchObject({ name: 'risk.signals', cron: '*/5 * * * *' });
    const before = await handle.db.select().from(fraudSignals);
    await job.handler({ db: handle.db, logger: capturingLogger().logger, now: new Date() });
    const after = await handle.db.select().from(fraudSignals);
    expect(after.length).toBe(before.length);
  });
});

describe('deciding a signal', () => {
  async function openSignal() {
    const member = await createMember(handle.db);
    const [row] = await handle.db
      .insert(fraudSignals)
      .values({
        kind: 'velocity_draws',
        memberId: member,
        key: '2026-11-24',
        evidence: { count: 9, draws: 9, coins: 900 },
        firstSeen: new Date(),
        lastSeen: new Date(),
      })
      .returning();
    return { member, id: row!.id };
  }
  const entriesFor = (targetId: string) =>
    handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId));

  it('holds the member and records both entries in one transaction', async () => {
    const operator = await operatorFor(await account('admin'));
    const { member, id } = await openSignal();
    const done = await decideSignalAsOperator(
      handle.db,
      operator,
      id,
      {
        decision: 'hold',
        note: '確認中',
        banExpires: null,
      },
      site,
    );
    expect(done).toMatchObject({ ok: true, value: { status: 'held', decidedLabel: operator.label } });
    expect(await purchaseHoldOf(handle.db, member)).not.toBeNull();
    expect((await entriesFor(String(id))).map((e) => e.action)).toEqual(['signal.decide']);
    expect((await entriesFor(member)).map((e) => e.action)).toEqual(['member.hold']);
    // The note stays on the signal; the log keeps its digest (decision 053).
    const [decided] = await entriesFor(String(id));
    expect(decided!.after).toMatchObject({ decision: 'hold', note: digestOf('確認中') });
    expect(JSON.stringify(await entriesFor(member))).not.toContain('確認中');
    // A held signal can still be banned; a banned one is final.
    const banned = await decideSignalAsOperator(
      handle.db,
      operator,
      id,
      {
        decision: 'ban',
        note: '不正',
        banExpires: null,
      },
      site,
    );
    expect(banned.ok).toBe(true);
    const [user] = await handle.db.select().from(users).where(eq(users.id, member));
    expect(user).toMatchObject({ banned: true, banReason: '不正' });
    const again = await decideSignalAsOperator(
      handle.db,
      operator,
      id,
      {
        decision: 'clear',
        note: '',
        banExpires: null,
      },
      site,
    );
    expect(again).toMatchObject({ ok: false, code: 'SIGNAL_ALREADY_DECIDED' });
  });

  it('changes nothing when the ban is refused (a staff member banning a staff account), nor without members:write', async () => {
    const staffId = await account('staff');
    await handle.db
      .insert(staffPermissions)
      .values({ memberId: staffId, permission: 'members:write', grantedBy: 'test' });
    const staffOperator = await operatorFor(staffId);
    const colleague = await account('staff');
    const [row] = await handle.db
      .insert(fraudSignals)
      .values({
        kind: 'chargeback',
        memberId: colleague,
        key: randomUUID(),
        evidence: {},
        firstSeen: new Date(),
        lastSeen: new Date(),
      })
      .returning();
    const refused = await decideSignalAsOperator(
      handle.db,
      staffOperator,
      row!.id,
      {
        decision: 'ban',
        note: 'x',
        banExpires: null,
      },
      site,
    );
    expect(refused).toMatchObject({ ok: false, code: 'MEMBER_STAFF_PROTECTED' });
    expect((await handle.db.select().from(fraudSignals).where(eq(fraudSignals.id, row!.id)))[0]!.status).toBe('open');
    expect(await entriesFor(String(row!.id))).toEqual([]);
    expect(await entriesFor(colleague)).toEqual([]);

    const reader = await account('staff');
    await handle.db
      .insert(staffPermissions)
      .values({ memberId: reader, permission: 'signals:read', grantedBy: 'test' });
    const { id } = await openSignal();
    const denied = await decideSignalAsOperator(
      handle.db,
      await operatorFor(reader),
      id,
      {
        decision: 'clear',
        note: '',
        banExpires: null,
      },
      site,
    );
    expect(denied).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(await countOpenSignals(handle.db)).toBeGreaterThan(0);
    expect(
      (await listSignals(handle.db, { status: 'open', kind: 'velocity_draws' }, 100)).items.map((s) => s.id),
    ).toContain(id);
  });

  it('refuses an unknown signal, and reads the form with Japanese messages', async () => {
    const refused = await decideSignalAsOperator(
      handle.db,
      commandLineOperator(),
      999_999_999,
      {
        decision: 'clear',
        note: '',
        banExpires: null,
      },
      site,
    );
    expect(refused).toMatchObject({ ok: false, code: 'SIGNAL_NOT_FOUND' });
    const noReason = signalDecisionSchema.safeParse({ decision: 'ban', note: '' });
    expect(noReason.success).toBe(false);
    expect(noReason.error?.issues[0]?.message).toBe('利用停止の理由を入力してください。');
    const badDay = signalDecisionSchema.safeParse({ decision: 'ban', note: '不正', until: '2020-13-01' });
    expect(badDay.error?.issues[0]?.message).toContain('期限は');
    expect(signalDecisionSchema.safeParse({ decision: 'delete' }).error?.issues[0]?.message).toContain('判断');
  });
});
