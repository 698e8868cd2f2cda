// 特典コード over HTTP: the member page (redeem, Japanese refusals as 4xx, the member's own history only,
// the rate limit) and the admin page (single code, batch with CSV, deactivate, promo:write only, audited).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq, inArray, like } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, promoCodes } from '#db/schema';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

async function member(label: string) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'promo-pass-12', agreeToTerms: 'on' });
  return { email, cookie: cookieFrom(page.headers) };
}

/** A JST datetime-local value `hours` from now. */
const jstLocal = (hours: number) => new Date(Date.now() + 9 * 3_600_000 + hours * 3_600_000).toISOString().slice(0, 16);
const TERMS = { label: 'HTTPキャンペーン', coins: '150', startsAt: jstLocal(-1), endsAt: jstLocal(48) };

describe.skipIf(!databaseUrl)(
  `特典コード over HTTP${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('lets operators with promo:write create a code, a batch with its CSV, and stop a code, all audited', async () => {
      const reader = await member('promo-viewer');
      await grantStaff(handle!.db, reader.email, ['orders:read']);
      expect((await get('/admin/promo-codes', { cookie: reader.cookie })).status).toBe(403);
      const staff = await member('promo-op');
      await grantStaff(handle!.db, staff.email, ['promo:write']);
      const cookie = staff.cookie;
      expect((await get('/admin/promo-codes', { cookie })).body).toContain('特典コード');

      const code = `HTTP${Date.now().toString(36).toUpperCase()}`;
      const made = await postForm('/admin/promo-codes', { intent: 'create', code, ...TERMS }, { cookie });
      expect(made.status).toBe(200);
      expect(made.body).toContain(`特典コード ${code} を登録しました`);
      const again = await postForm(
        '/admin/promo-codes',
        { intent: 'create', code: code.toLowerCase(), ...TERMS },
        { cookie },
      );
      expect(again.status).toBe(409);
      expect(again.body).toContain('すでに登録されています');
      const bad = await postForm(
        '/admin/promo-codes',
        { intent: 'create', code, ...TERMS, coins: 'たくさん' },
        { cookie },
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('付与コインは1〜');

      const batch = await postForm('/admin/promo-codes', { intent: 'batch', count: '5', ...TERMS }, { cookie });
      expect(batch.status).toBe(200);
      expect(batch.body).toContain('特典コードを5件発行しました');
      const batchId = batch.body.match(/batch\.csv\?id=([0-9a-f-]{36})/)?.[1];
      expect(batchId).toBeTruthy();
      const csv = await get(`/admin/promo-codes/batch.csv?id=${batchId}`, { cookie });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const rows = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(rows).toHaveLength(6);
      for (const row of rows.slice(1)) expect(row.split(',')[0]).toMatch(/^[A-HJKMNP-Z2-9]{10}$/);
      expect((await get(`/admin/promo-codes/batch.csv?id=${batchId}`, { cookie: reader.cookie })).status).toBe(403);

      const [row] = await handle!.db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.code, code));
      const stopped = await postForm('/admin/promo-codes', { intent: 'deactivate', id: String(row!.id) }, { cookie });
      expect(stopped.status).toBe(200);
      expect(stopped.body).toContain('停止しました');
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        // Target ids are numbers of many kinds (a signal's id can equal this code's): promo entries only.
        .where(
          and(inArray(adminAuditLog.targetId, [String(row!.id), batchId!]), like(adminAuditLog.action, 'promo.%')),
        );
      expect(audit.map((a) => a.action).sort()).toEqual([
        'promo.batch',
        'promo.create',
        'promo.deactivate',
        'promo.export',
      ]);

      // A member who types the stopped code is told it is unknown.
      const someone = await member('promo-stopped');
      const refused = await postForm('/mypage/tokutencode', { code }, { cookie: someone.cookie });
      expect(refused.status).toBe(404);
      expect(refused.body).toContain('この特典コードは見つかりません');
    });

    it('redeems on the member page, refuses in Japanese, and shows only the member’s own history', async () => {
      const visitor = await get('/mypage/tokutencode');
      expect([visitor.status, visitor.body.includes('ログインが必要です')]).toEqual([200, true]);
      const staff = await member('promo-issuer');
      await grantStaff(handle!.db, staff.email, ['promo:write']);
      const code = `PAGE${Date.now().toString(36).toUpperCase()}`;
      const made = await postForm(
        '/admin/promo-codes',
        { intent: 'create', code, ...TERMS, maxRedemptions: '1' },
        { cookie: staff.cookie },
      );
      expect(made.status).toBe(200);

      const alice = await member('promo-alice');
      const page = await get('/mypage/tokutencode', { cookie: alice.cookie });
      expect(page.status).toBe(200);
      expect(page.body).toContain('まだ特典コードを使っていません');
      const typed = ` ${code.toLowerCase().slice(0, 4)}－${code.slice(4)} `;
      const done = await postForm('/mypage/tokutencode', { code: typed }, { cookie: alice.cookie });
      expect(done.status).toBe(200);
      expect(done.body).toContain('150 コイン（無償）を受け取りました');
      expect((await get('/mypage/tokutencode', { cookie: alice.cookie })).body).toContain('HTTPキャンペーン');
      const twice = await postForm('/mypage/tokutencode', { code }, { cookie: alice.cookie });
      expect(twice.status).toBe(409);
      expect(twice.body).toContain('すでに利用済み');

      const bob = await member('promo-bob');
      expect((await get('/mypage/tokutencode', { cookie: bob.cookie })).body).not.toContain('HTTPキャンペーン');
      const usedUp = await postForm('/mypage/tokutencode', { code }, { cookie: bob.cookie });
      expect(usedUp.status).toBe(409);
      expect(usedUp.body).toContain('利用上限に達した');
      const blank = await postForm('/mypage/tokutencode', { code: '  ' }, { cookie: bob.cookie });
      expect(blank.status).toBe(400);
      expect(blank.body).toContain('特典コードを入力してください');
      const shape = await postForm('/mypage/tokutencode', { code: 'あ' }, { cookie: bob.cookie });
      expect(shape.status).toBe(422);
    });

    it('rate-limits a member’s attempts with a Japanese 429 (Retry-After: the API test)', async () => {
      const guesser = await member('promo-guesser');
      let last = await postForm('/mypage/tokutencode', { code: 'GUESS0000' }, { cookie: guesser.cookie });
      for (let i = 1; i <= 10 && last.status !== 429; i++)
        last = await postForm('/mypage/tokutencode', { code: `GUESS${i}AAAA` }, { cookie: guesser.cookie });
      expect(last.status).toBe(429);
      expect(last.body).toContain('特典コードの入力回数が多すぎます');
    });
  },
);
