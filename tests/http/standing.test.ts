// A restricted member's statement over HTTP, as the built shop answers it (decision 084): who may read and
// appeal what. A visitor gets the sign-in prompt at /mypage/standing; member A can neither appeal B's
// restriction from their own page nor with B's link; a link opens only its own restriction, a dead link is a
// 404 page that says where to ask; a cross-site post is refused; bad input is a 4xx in Japanese.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { outboundMessages, users } from '#db/schema';
import { restrictionsOf } from '#modules/identity';
import { checkInvariants } from '#modules/wallet';
import { grantStaff } from '#tests/staff';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

const PASSWORD = 'password-1234';

async function signedUp(label: string) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: 'せいげん', email, password: PASSWORD, agreeToTerms: 'on' });
  expect(page.status).toBe(302);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, cookie: cookieFrom(page.headers), id: row!.id };
}

const linkOf = async (email: string) => {
  const mails = await handle!.db
    .select({ text: outboundMessages.textBody })
    .from(outboundMessages)
    .where(eq(outboundMessages.recipient, email));
  for (const mail of mails) {
    const found = /\/standing\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
    if (found) return `/standing/${found[1]}`;
  }
  throw new Error(`no statement link to ${email}`);
};

describe('the statement pages', () => {
  it.skipIf(!databaseUrl)('answer only their own member, by session or by link', async () => {
    expect((await get('/mypage/standing')).body).toContain('ログイン');
    const operator = await signedUp('standing-op');
    await grantStaff(handle!.db, operator.email, ['members:read', 'members:write']);
    const held = await signedUp('standing-held');
    const banned = await signedUp('standing-banned');
    expect(
      (
        await postForm(
          `/admin/members/${held.id}`,
          { intent: 'hold', category: 'identity_check', reason: '住民票の照合中' },
          { cookie: operator.cookie },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await postForm(
          `/admin/members/${banned.id}`,
          { intent: 'ban', category: 'harassment', reason: '暴言' },
          { cookie: operator.cookie },
        )
      ).status,
    ).toBe(200);
    const [hold] = await restrictionsOf(handle!.db, held.id);
    const [ban] = await restrictionsOf(handle!.db, banned.id);

    // The held member's page: their own restriction, with its category; never the staff's reason.
    const page = await get('/mypage/standing', { cookie: held.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('本人確認のため');
    expect(page.body).not.toContain('住民票の照合中');
    expect(page.headers.get('cache-control')).toContain('no-store');

    // Member A (held) cannot appeal B's ban from their page: answered as missing, nothing recorded.
    const across = await postForm(
      '/mypage/standing',
      { intent: 'appeal', restrictionId: ban!.id, message: '他人の制限' },
      { cookie: held.cookie },
    );
    expect(across.status).toBe(404);
    expect(across.body).toContain('異議を申し立てられる利用制限が見つかりません');
    // Bad input: an empty message, a forged intent.
    const empty = await postForm(
      '/mypage/standing',
      { intent: 'appeal', restrictionId: hold!.id, message: '  ' },
      { cookie: held.cookie },
    );
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('異議の内容を入力してください');
    expect(
      (await postForm('/mypage/standing', { intent: 'delete', restrictionId: hold!.id }, { cookie: held.cookie }))
        .status,
    ).toBe(400);
    // A cross-site post is refused before the page.
    const forged = await postForm(
      '/mypage/standing',
      { intent: 'appeal', restrictionId: hold!.id, message: 'csrf' },
      { cookie: held.cookie, origin: 'https://evil.example' },
    );
    expect(forged.status).toBe(403);

    // The banned member's link: their statement; the held member's restriction cannot be appealed with it.
    const link = await linkOf(banned.email);
    const shown = await get(link);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('迷惑行為');
    expect(shown.headers.get('x-robots-tag')).toContain('noindex');
    const withOtherId = await postForm(link, { intent: 'appeal', restrictionId: hold!.id, message: 'x' });
    expect(withOtherId.status).toBe(404);
    const sent = await postForm(link, { intent: 'appeal', restrictionId: ban!.id, message: '誤解です' });
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('異議申し立てを受け付けました');
    const again = await postForm(link, { intent: 'appeal', restrictionId: ban!.id, message: '再送' });
    expect(again.status).toBe(409);
    expect((await restrictionsOf(handle!.db, held.id))[0]!.appeal).toBeNull();

    // A dead or made-up link says so (404), and where to ask instead.
    const dead = await get(`/standing/${'A'.repeat(43)}`);
    expect(dead.status).toBe(404);
    expect(dead.body).toContain('このリンクは無効か、有効期限が切れています');
    expect(
      (await postForm(`/standing/${'A'.repeat(43)}`, { intent: 'appeal', restrictionId: ban!.id, message: 'x' }))
        .status,
    ).toBe(404);
  });
});
