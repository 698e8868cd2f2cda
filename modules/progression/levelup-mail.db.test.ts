// The single level-up mail (issue 29 item 9, decision 060) against a real database: a 100連 that crosses
// seven levels sends one mail naming each level and its reward, the attachment is their sum and is
// credited once, the rewards table answers that mail for each level, and a level named by an earlier
// mail is never rewarded again when the thresholds change.
import { describe, it, expect, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { drawLots } from '#modules/draw';
import { claimAllPresents, claimMailAttachment, openMail, plainText, presentsByNumber } from '#modules/mailbox';
import { getBalance } from '#modules/wallet';
import { mails } from '#db/schema';
import { syncLevelTable } from './index';

const handle = useTestDatabase('levelup-mail', { poolSize: 4, invariants: 'afterEach' });
const CLAIM = { freeCoinDays: 90 };

async function draw(memberId: string, gachaId: string, count: number) {
  const outcome = await drawLots(handle.db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
  });
  if (!outcome.ok) throw new Error(`draw refused: ${outcome.code}`);
  return outcome.result;
}

const levelMails = (memberId: string) =>
  handle.db
    .select({ id: mails.id, key: mails.dedupeKey, subject: mails.subject, coins: mails.attachmentCoins })
    .from(mails)
    .where(and(eq(mails.memberId, memberId), like(mails.dedupeKey, 'level-up:%')))
    .orderBy(mails.id);

afterAll(() => syncLevelTable(handle.db, { thresholds: [], rewards: [], claimDays: 30 }));

describe('one level-up mail per draw', () => {
  it('names all seven levels a 100連 crossed and their rewards, and credits their sum once', async () => {
    const db = handle.db;
    // Levels 2…8 at 100, 200, … 700 exp; rewards 10, 20, … 70.
    await syncLevelTable(db, {
      thresholds: [100, 200, 300, 400, 500, 600, 700, 100_000],
      rewards: [10, 20, 30, 40, 50, 60, 70, 80],
      claimDays: 14,
    });
    const pack = await createPublishedPack(db, { lots: 300, price: 10 });
    const member = await createMemberWithCoins(db, { paid: 10_000 });
    await draw(member, pack, 100); // 1,000 exp: levels 2 to 8

    const sent = await levelMails(member);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ key: 'level-up:2,3,4,5,6,7,8', subject: 'レベル2〜8に到達しました', coins: 280 });
    const mail = await openMail(db, member, sent[0]!.id);
    const text = mail!.body.map((block) => ('text' in block ? block.text : '')).join('\n');
    for (let level = 2; level <= 8; level += 1)
      expect(text).toContain(`レベル${level}：無償コイン${(level - 1) * 10}枚`);
    expect(text).toContain('無償コイン280枚');
    expect(text).not.toContain('無料コイン');
    expect(mail!.body).toEqual(plainText(text));

    // Each level of the table answers the one mail; claiming it credits the sum once.
    const presents = await presentsByNumber(db, member, 'level-up:');
    expect([...presents.keys()].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(new Set([...presents.values()].map((p) => p.mailId))).toEqual(new Set([sent[0]!.id]));
    const before = (await getBalance(db, member)).free;
    expect(await claimAllPresents(db, member, CLAIM)).toEqual({ ok: true, claimed: 1, coins: 280 });
    expect(await claimMailAttachment(db, member, sent[0]!.id, CLAIM)).toMatchObject({ code: 'MAIL_ALREADY_CLAIMED' });
    expect((await getBalance(db, member)).free - before).toBe(280);
    expect((await presentsByNumber(db, member, 'level-up:')).get(5)?.state).toBe('claimed');
  });

  it('never rewards a level named by an earlier mail again when the thresholds change', async () => {
    const db = handle.db;
    await syncLevelTable(db, { thresholds: [100, 200, 100_000], rewards: [10, 20, 30], claimDays: 14 });
    const pack = await createPublishedPack(db, { lots: 300, price: 25 });
    const cheaper = await createPublishedPack(db, { lots: 300, price: 20 });
    const member = await createMemberWithCoins(db, { paid: 10_000 });
    await draw(member, pack, 10); // 250 exp: levels 2 and 3
    expect((await levelMails(member)).map((m) => m.key)).toEqual(['level-up:2,3']);
    // The operator raises level 3 and adds level 4: the next draw crosses 3 (already mailed) and 4.
    await syncLevelTable(db, { thresholds: [100, 300, 400, 100_000], rewards: [10, 20, 30, 40], claimDays: 14 });
    await draw(member, cheaper, 10); // 450 exp
    const sent = await levelMails(member);
    expect(sent.map((m) => [m.key, m.coins, m.subject])).toEqual([
      ['level-up:2,3', 30, 'レベル2〜3に到達しました'],
      ['level-up:4', 30, 'レベル4に到達しました'],
    ]);
  });
});
