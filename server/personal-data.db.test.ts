// 退会 erases personal data everywhere (issue 28, item 8; decision 053): a member signs up with a
// nickname, signs in from two addresses, verifies a phone number by SMS, writes to the contact form
// (their number as typed, with and without hyphens, their address, an image), keeps an address book,
// buys coins, draws, asks for shipping, gets mailbox mails (and their email notices), is invited, makes a
// friend, plays the farm and is seen by the fraud signals; then deletes the account through the page.
// Afterwards EVERY text and JSON column of EVERY table in the catalog is scanned for the email, the
// number in every spelling, the nickname and the address: nothing is found except where the data map
// (tests/support/personal-data-map.ts) keeps it and says why. Runs on PostgreSQL (the catalog and
// several connections); PGlite is skipped with the reason.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { signUpConfirmed, memberRequest, TEST_ORIGIN } from '#tests/identity';
import { answerOf } from '#tests/route-answers';
import { createMember, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { catalogTextColumns, tableKeyOf } from '#tests/catalog';
import { testAddressInput } from '#tests/shipping';
import { NOT_PERSONAL, PERSONAL_DATA_MAP } from '#tests/personal-data-map';
import { queryRows } from '#db/client';
import { ERASED_MARK } from '#db/redact';
import { digestOf } from '#tests/audit-digest';
import {
  inquiries,
  inquiryAttachments,
  inquiryMessages,
  memberAddresses,
  outboundMessages,
  paymentEvents,
  paymentOrders,
  shippingRequests,
  users,
  coinLedger,
  fraudSignals,
} from '#db/schema';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { outboxMessenger } from '#server/messenger';
import { sendWelcomeMail } from '#server/mailbox';
import { shippingRulesOf } from '#server/shipping';
import { friendRulesOf, farmContextOf } from '#server/farm';
import { riskRulesOf } from '#server/jobs/risk';
import type { ShopServices } from '#server/services';
import { mediaStoreOf } from '#server/media/index';
import { capturingMessenger, createShopAuth, type IdentityMessenger } from '#modules/identity/server';
import { createMaintenanceCache } from '#modules/shop';
import { drawLots } from '#modules/draw';
import { grantCoins } from '#modules/wallet';
import { createAddress, createShippingRequest, setShippingInternalNote } from '#modules/shipping';
import { checkoutAsMember, sandboxHarness } from '#modules/payments/testing';
import { notifyMember, sendPendingMailEmails, setMailEmailOptIn } from '#modules/mailbox';
import { attachInvitation, invitationCodeOf } from '#modules/invitation';
import { decideFriendship, requestFriend } from '#modules/friends';
import { listFarmSeeds, plantSeed } from '#modules/farm';
import { computeSignals } from '#modules/risk';
import { replyToInquiry, setInquiryNote } from '#modules/support';
import { addMemberNoteAsOperator, commandLineOperator, holdMemberAsOperator } from '#modules/admin';
import { deliverDueMessages } from '#modules/messaging';
import { contactAction } from '~/controllers/contact.server';
import { deletionPageAction } from '~/controllers/account-deletion.server';
import { finishDeletions } from './personal-data';

const handle = useTestDatabase('personal_data', { poolSize: 4, invariants: 'afterAll' });
const PASSWORD = 'password-1234';
const run = randomUUID().slice(0, 8);

/** What the member is: every value the scan looks for afterwards. */
const person = {
  email: `taikai.${run}@example.jp`,
  nickname: `退会ニック${run}`,
  // A fresh mobile number per run (E.164 as stored; the other spellings as members type them).
  phoneE164: `+8190${String(10_000_000 + (parseInt(run, 16) % 89_999_999)).slice(0, 8)}`,
  addressName: `消去花子${run}`,
  addressKana: 'ショウキョ ハナコ',
  town: `消去町${run}-9-9`,
  building: `消去ハイツ${run}号`,
  // The address book's own number: another one, typed with hyphens. Its block starts with 1: 080-0… is
  // 0800, a toll-free number the address book refuses (a run id starting with 0 once made one).
  addressPhone: `080-1${run.replace(/\D/g, '7').slice(0, 3).padEnd(3, '7')}-${String(parseInt(run, 16) % 10_000).padStart(4, '0')}`,
};
const nationalOf = (e164: string) => `0${e164.slice(3)}`;
const typedPhone = `${nationalOf(person.phoneE164).slice(0, 3)}-${nationalOf(person.phoneE164).slice(3, 7)}-${nationalOf(person.phoneE164).slice(7)}`;

/** A name as SQL writes it, quoted. */
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The kinds of personal data the scan reports, and the spellings it looks for. */
const NEEDLES: { kind: 'email' | 'phone' | 'name' | 'address'; value: string }[] = [
  { kind: 'email', value: person.email },
  { kind: 'phone', value: person.phoneE164 },
  { kind: 'phone', value: typedPhone },
  { kind: 'phone', value: nationalOf(person.phoneE164) },
  { kind: 'phone', value: person.addressPhone },
  { kind: 'phone', value: person.addressPhone.replace(/-/g, '') },
  { kind: 'name', value: person.nickname },
  { kind: 'name', value: person.addressName },
  { kind: 'address', value: person.town },
  { kind: 'address', value: person.building },
];

interface Finding {
  column: string;
  kind: string;
  value: string;
}

/** Every text and JSON column of every table (pg-boss's too when present), searched for every needle. */
async function scanEverything(): Promise<Finding[]> {
  const findings: Finding[] = [];
  const values = NEEDLES.map((n) => n.value.toLowerCase());
  for (const column of await catalogTextColumns(handle.db, { includeForeign: true })) {
    const rows = await queryRows<{ needle: string }>(
      handle.db,
      sql`select distinct n.needle
            from ${sql.raw(`${quoteIdent(column.schema)}.${quoteIdent(column.table)}`)} t,
                 jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) as n(needle)
           where position(n.needle in lower(t.${sql.raw(quoteIdent(column.column))}::text)) > 0`,
    );
    for (const row of rows) {
      const needle = NEEDLES.find((n) => n.value.toLowerCase() === row.needle)!;
      findings.push({ column: `${tableKeyOf(column.schema, column.table)}.${column.column}`, ...needle });
    }
  }
  return findings;
}

/** Whether the data map keeps this kind of data in this column after 退会, with its reason. */
function mapKeeps(finding: Finding): boolean {
  const table = finding.column.slice(0, finding.column.lastIndexOf('.'));
  const entry = PERSONAL_DATA_MAP[table]?.columns[finding.column.slice(table.length + 1)];
  if (!entry || entry === NOT_PERSONAL || entry.onDeletion !== 'keep') return false;
  return (entry.holds as readonly string[]).includes(finding.kind);
}

/** Mail and SMS are queued in the outbox (as in production) and kept for reading the codes. */
function teeMessenger(outbox: IdentityMessenger) {
  const captured = capturingMessenger();
  return {
    sent: captured.sent,
    async mail(message: Parameters<IdentityMessenger['mail']>[0]) {
      await captured.mail(message);
      await outbox.mail(message);
    },
    async sms(message: Parameters<IdentityMessenger['sms']>[0]) {
      await captured.sms(message);
      await outbox.sms(message);
    },
  };
}

let services: ShopServices;
let messenger: ReturnType<typeof teeMessenger>;

beforeAll(() => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    AUTH_SECRET: 'personal-data-test-secret-personal-data-01',
    LOG_LEVEL: 'silent',
    PAYMENT_SANDBOX: 'true',
  });
  const logger = createLogger('silent');
  messenger = teeMessenger(outboxMessenger(handle.db, config));
  const auth = createShopAuth({
    db: handle.db,
    config,
    logger,
    messenger,
    onMemberCreated: async (created) => {
      await sendWelcomeMail(handle.db, config, created.memberId);
    },
  });
  const maintenance = createMaintenanceCache(handle.db, { maxAgeMs: 0 });
  services = { config, database: handle, db: handle.db, auth, logger, buildId: 'test', maintenance, messenger };
});

/** One request to better-auth's handler from `address`, as the shop's /api/auth route forwards it. */
async function callAuth(path: string, body: Record<string, unknown>, cookie: string, address: string) {
  const response = await services.auth.handler(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: TEST_ORIGIN,
        cookie,
        'x-shop-client-ip': address,
        'user-agent': `PersonalDataTest/${run}`,
      },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, cookies: response.headers.getSetCookie() };
}

/** Everything a member can do that stores personal data; answers the member's id and cookie. */
async function memberWhoUsedEverything() {
  const db = handle.db;
  const config = services.config;
  const signedUp = await signUpConfirmed(
    services.auth,
    config.AUTH_SECRET,
    { email: person.email, password: PASSWORD, name: person.nickname },
    new Headers({ 'x-shop-client-ip': '198.51.100.7', 'user-agent': `PersonalDataTest/${run}` }),
  );
  const memberId = signedUp.id;
  let cookie = signedUp.cookie;

  // A second sign-in from another address (sessions keep the address and the browser).
  const second = await callAuth('/sign-in/email', { email: person.email, password: PASSWORD }, '', '198.51.100.8');
  expect(second.status).toBe(200);

  // The phone number, by SMS code (better-auth's phone plugin, as the settings page calls it).
  expect(
    (await callAuth('/phone-number/send-otp', { phoneNumber: person.phoneE164 }, cookie, '198.51.100.7')).status,
  ).toBe(200);
  const sms = messenger.sent.filter((m) => m.channel === 'sms' && m.to === person.phoneE164).at(-1)!;
  const verified = await callAuth(
    '/phone-number/verify',
    { phoneNumber: person.phoneE164, code: sms.vars.code, updatePhoneNumber: true },
    cookie,
    '198.51.100.7',
  );
  expect(verified.status).toBe(200);
  cookie =
    verified.cookies
      .map((line) => line.split(';')[0]!)
      .find((pair) => pair.includes('session_token=') && !pair.endsWith('=')) ?? cookie;
  const [phoneRow] = await db.select({ phone: users.phoneNumber }).from(users).where(eq(users.id, memberId));
  expect(phoneRow!.phone).toBe(person.phoneE164);

  // The address book, then coins, a draw and a shipping request that seals its own copy.
  const shipping = shippingRulesOf(config);
  const address = await createAddress(
    db,
    shipping.keyring,
    memberId,
    testAddressInput({
      name: person.addressName,
      nameKana: person.addressKana,
      town: person.town,
      building: person.building,
      phone: person.addressPhone,
    }),
  );
  if (!address.ok) throw new Error(address.code);
  await checkoutAsMember(db, sandboxHarness(db).gateway, memberId);
  await grantCoins(db, {
    memberId,
    kind: 'paid',
    amount: 1000,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `pd:paid:${memberId}`,
    lifetimeDays: TEST_RULES.coinLifetimes,
  });
  const gachaId = await createPublishedPack(db, { lots: 20, price: 100, drawOptions: [1, 2] });
  const drawn = await drawLots(db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count: 2,
    idempotencyKey: `pd:draw:${memberId}`,
  });
  if (!drawn.ok) throw new Error(drawn.code);
  const requested = await createShippingRequest(db, shipping, {
    memberId,
    idempotencyKey: `pd:ship:${memberId}`,
    prizeIds: drawn.result.items.map((item) => item.prizeId),
    addressId: address.address.id,
  });
  if (!requested.ok) throw new Error(requested.code);
  // The desk notes the request, quoting the member (kept with the request, redacted by 退会).
  const noted = await setShippingInternalNote(
    db,
    commandLineOperator(),
    requested.request.id,
    `${person.addressName}様 不在票あり ${person.addressPhone}`,
  );
  expect(noted.ok).toBe(true);

  // A provider's event that echoes the buyer (as Stripe's checkout.session does with customer_details).
  const [paid] = await db.select().from(paymentOrders).where(eq(paymentOrders.memberId, memberId)).limit(1);
  await db.insert(paymentEvents).values({
    provider: 'sandbox',
    eventId: `evt_${run}`,
    type: 'checkout.session.completed',
    orderId: paid!.id,
    providerRef: paid!.providerRef,
    hint: 'test',
    payload: {
      id: `evt_${run}`,
      data: { customer_details: { email: person.email, name: person.addressName, phone: person.phoneE164 } },
    },
  });

  // The contact form, as the member posts it: their number as typed both ways, the address, an image.
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ef3a6e' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set('category', 'shipping');
  form.set('email', person.email);
  form.set('subject', `${person.addressName}です`);
  form.set(
    'message',
    `電話は ${typedPhone}（${nationalOf(person.phoneE164)}）です。住所は ${person.town} ${person.building}、` +
      `連絡先 ${person.addressPhone}。`,
  );
  form.append('images', new File([new Uint8Array(png)], 'photo.png', { type: 'image/png' }));
  // Success redirects to the thank-you page (thrown, as React Router's redirect is).
  const posted = answerOf(
    await contactAction(
      await memberRequest(services, cookie),
      new Request(`${TEST_ORIGIN}/contact`, {
        method: 'POST',
        headers: { cookie, 'x-shop-client-ip': '198.51.100.7' },
        body: form,
      }),
    ).catch((thrown: unknown) => thrown as Response),
  );
  expect(posted.status).toBe(302);

  // The desk answers, quoting the member (as staff do), and notes the inquiry and the member.
  const operator = commandLineOperator();
  const [inquiry] = await db.select({ id: inquiries.id }).from(inquiries).where(eq(inquiries.memberId, memberId));
  const quoted = `${person.nickname}様（${typedPhone}）、${person.addressName}様宛の荷物を確認しました。`;
  const answered = await replyToInquiry(
    db,
    operator,
    { site: { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN } },
    inquiry!.id,
    {
      body: quoted,
      status: 'waiting',
    },
  );
  expect(answered.ok).toBe(true);
  expect((await setInquiryNote(db, operator, inquiry!.id, `折り返し ${person.phoneE164}`)).ok).toBe(true);
  expect((await addMemberNoteAsOperator(db, operator, memberId, `${person.email} から電話あり`)).ok).toBe(true);

  // The mailbox: a personal mail, and its email notice for a member who opted in.
  await setMailEmailOptIn(db, memberId, true);
  await notifyMember(db, {
    memberId,
    category: 'operator',
    subject: `${person.nickname}様へのお知らせ`,
    body: `${person.email} 宛にご連絡しました。ご利用ありがとうございます。`,
    dedupeKey: `pd:${memberId}`,
  });
  await sendPendingMailEmails(db, { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN }, { limit: 50 });

  // Invited by a friend, and friends with them; the farm.
  const inviter = await createMember(db, { name: `招待者${run}` });
  const invited = await attachInvitation(db, { inviteeId: memberId, code: await invitationCodeOf(db, inviter) });
  expect(invited.ok).toBe(true);
  const friendRules = friendRulesOf(config);
  const asked = await requestFriend(db, memberId, await invitationCodeOf(db, inviter), friendRules);
  if (!asked.ok) throw new Error(asked.code);
  expect((await decideFriendship(db, inviter, asked.friendshipId, 'accept', friendRules)).ok).toBe(true);
  const [seed] = await listFarmSeeds(db);
  const planted = await plantSeed(db, memberId, { plotNo: 1, seedId: seed!.id }, farmContextOf(config));
  expect(planted.ok).toBe(true);

  // The fraud signals read the sessions (address・browser labels) and the address book.
  await computeSignals(db, riskRulesOf(config));
  // A signal on the member that staff decided with a note quoting them (redacted by 退会).
  await db.insert(fraudSignals).values({
    kind: 'shared_device',
    memberId,
    key: `pd-signal-${run}`,
    evidence: { members: 2 },
    firstSeen: new Date(),
    lastSeen: new Date(),
    status: 'cleared',
    decidedLabel: 'コマンドライン',
    decidedAt: new Date(),
    decisionNote: `${person.email} 本人と電話 ${person.phoneE164} で確認済み`,
  });

  // Last (a hold stops buying): staff hold the member with a reason that quotes them; the reason is kept
  // as a staff note, and the audit log keeps only digests of every text above (decision 053).
  const holdReason = `${person.nickname}様 ${person.email} の本人確認中`;
  expect(
    await holdMemberAsOperator(db, operator, memberId, holdReason, {
      category: 'identity_check',
      site: { name: 'テスト', origin: 'http://localhost:3000' },
    }),
  ).toEqual({ ok: true, value: { placed: true } });
  return { memberId, cookie, inquiryId: inquiry!.id, quoted, holdReason };
}

describe('退会 erases personal data everywhere', () => {
  it('finds the member nowhere afterwards except where the data map keeps it, and the sealed address stays sealed', async (context) => {
    if (handle.engine !== 'postgres') context.skip('needs PostgreSQL (the catalog scan and several connections)');
    const { memberId, cookie, inquiryId, quoted, holdReason } = await memberWhoUsedEverything();

    // Before: the features really stored the data (the scan can fail).
    const before = await scanEverything();
    const seen = new Set(before.map((f) => f.column));
    for (const column of [
      'users.email',
      'users.name',
      'users.phone_number',
      'inquiries.email',
      'inquiry_messages.body',
      'outbound_messages.recipient',
      'rate_limits.key',
      'payment_events.payload',
    ])
      expect(seen, column).toContain(column);
    const [image] = await handle.db
      .select({ key: inquiryAttachments.storageKey })
      .from(inquiryAttachments)
      .innerJoin(sql`inquiries`, sql`inquiries.id = ${inquiryAttachments.inquiryId}`)
      .where(sql`inquiries.member_id = ${memberId}`);
    const imageFile = `${handle.dataDir}/inquiries/${image!.key}.webp`;
    await expect(fs.stat(imageFile)).resolves.toBeTruthy();

    // Sign-ins from an address: the sessions and the fraud signals' readable labels hold the IP address.
    const labelsOf = () =>
      queryRows<{ label: string | null }>(
        handle.db,
        sql`select label from risk_fingerprints where member_id = ${memberId}`,
      );
    expect((await labelsOf()).some((row) => row.label?.includes('198.51.100.'))).toBe(true);

    const ledgerBefore = await handle.db.select().from(coinLedger).where(eq(coinLedger.memberId, memberId));

    // 退会, through the page.
    const done = answerOf(
      await deletionPageAction(
        await memberRequest(services, cookie),
        new Request(`${TEST_ORIGIN}/mypage/settings/delete`, {
          method: 'POST',
          headers: { cookie, 'x-shop-client-ip': '198.51.100.7', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ confirmation: '退会する', password: PASSWORD }),
        }),
      ),
    );
    expect(done.status).toBe(302);

    // The image is gone from disk at once; the notice is still on its way to the real address.
    await expect(fs.stat(imageFile)).rejects.toThrow();
    await expect(fs.stat(imageFile.replace(/\.webp$/, '-thumb.webp'))).rejects.toThrow();
    const [notice] = await handle.db
      .select()
      .from(outboundMessages)
      .where(and(eq(outboundMessages.memberId, memberId), eq(outboundMessages.template, 'account-deleted')));
    expect(notice).toMatchObject({ recipient: person.email, status: 'queued' });

    // The deliver job sends it; the clean-up job then forgets it (run twice: idempotent).
    const delivered: string[] = [];
    await deliverDueMessages(
      handle.db,
      {
        mail: { send: async (mail) => (delivered.push(mail.to), { providerId: `m-${mail.id}` }) },
        sms: { send: async () => ({ providerId: 's' }) },
      },
      { now: new Date(), limit: 100 },
    );
    expect(delivered).toContain(person.email);
    expect((await finishDeletions(handle.db, mediaStoreOf(services), new Date())).messages).toBeGreaterThan(0);
    expect((await finishDeletions(handle.db, mediaStoreOf(services), new Date())).messages).toBe(0);

    // The scan: every text and JSON column of every table.
    const after = await scanEverything();
    expect(after.filter((finding) => !mapKeeps(finding))).toEqual([]);

    // Nothing at all, the append-only audit log included: it keeps digests of the staff's words, never
    // the words (decision 053). The desk's answer and notes themselves are redacted, and the answer is
    // still there to read.
    expect(after).toEqual([]);
    const audited = await queryRows<{ action: string; after: Record<string, unknown> | null }>(
      handle.db,
      sql`select action, after from admin_audit_log where action in ('inquiry.reply', 'inquiry.note', 'member.note', 'member.hold') order by id`,
    );
    expect(audited).toEqual([
      { action: 'inquiry.reply', after: expect.objectContaining({ reply: digestOf(quoted) }) },
      {
        action: 'inquiry.note',
        after: expect.objectContaining({ internalNote: digestOf(`折り返し ${person.phoneE164}`) }),
      },
      { action: 'member.note', after: expect.objectContaining({ text: digestOf(`${person.email} から電話あり`) }) },
      { action: 'member.hold', after: expect.objectContaining({ reason: digestOf(holdReason) }) },
    ]);
    const [answer] = await handle.db
      .select({ body: inquiryMessages.body })
      .from(inquiryMessages)
      .where(and(eq(inquiryMessages.inquiryId, inquiryId), eq(inquiryMessages.author, 'staff')));
    expect(answer!.body).toBe(`${ERASED_MARK}様（${ERASED_MARK}）、${ERASED_MARK}様宛の荷物を確認しました。`);

    // The sessions are gone; the fingerprints stay as keyed hashes without their IP・browser label.
    expect(await queryRows(handle.db, sql`select 1 from sessions where user_id = ${memberId}`)).toEqual([]);
    expect((await labelsOf()).length).toBeGreaterThan(0);
    expect((await labelsOf()).every((row) => row.label === null)).toBe(true);

    // The address book is gone; the shipping request's sealed copy stays sealed (decision 019), and no
    // plaintext copy of any address field is anywhere (the scan above includes the sealed column).
    expect(await handle.db.select().from(memberAddresses).where(eq(memberAddresses.memberId, memberId))).toEqual([]);
    const [request] = await handle.db
      .select({ sealed: shippingRequests.addressSealed })
      .from(shippingRequests)
      .where(eq(shippingRequests.memberId, memberId));
    expect(request!.sealed).toMatch(/^a1\.[^.]+\.[\w-]+\.[\w-]+\.[\w-]+$/);

    // The ledger is untouched: the same rows, under the tombstone's id.
    expect(await handle.db.select().from(coinLedger).where(eq(coinLedger.memberId, memberId))).toEqual(ledgerBefore);

    // Staff words kept for their own reason stay readable, the member's identifiers redacted: the desk's
    // note on the request and the decision note on a signal. The personal mail's words are gone.
    const [desk] = await handle.db
      .select({ note: shippingRequests.internalNote })
      .from(shippingRequests)
      .where(eq(shippingRequests.memberId, memberId));
    expect(desk!.note).toBe(`${ERASED_MARK}様 不在票あり ${ERASED_MARK}`);
    const [signal] = await handle.db
      .select({ note: fraudSignals.decisionNote })
      .from(fraudSignals)
      .where(and(eq(fraudSignals.memberId, memberId), eq(fraudSignals.key, `pd-signal-${run}`)));
    expect(signal!.note).toBe(`${ERASED_MARK} 本人と電話 ${ERASED_MARK} で確認済み`);
    const personalMails = await queryRows<{ subject: string }>(
      handle.db,
      sql`select subject from mails where audience = 'personal' and member_id = ${memberId}`,
    );
    expect(personalMails.length).toBeGreaterThan(0);
    expect(personalMails.every((mail) => mail.subject === ERASED_MARK)).toBe(true);
  });
});
