// Genres in the admin area over HTTP: packs:write only; a new genre (hidden first, then shown with an
// old id that redirects to it); an alias another genre owns is refused in Japanese; every save audited.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog } from '#db/schema';
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

async function staffWith(label: string, permissions: string[]) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'genres-pass-1', agreeToTerms: 'on' });
  await grantStaff(handle!.db, email, permissions);
  return cookieFrom(page.headers);
}

describe.skipIf(!databaseUrl)(
  `genres in the admin area${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('adds a genre hidden, shows it with an old id that redirects, and refuses a taken alias', async () => {
      const reader = await staffWith('genres-reader', ['orders:read']);
      expect((await get('/admin/genres', { cookie: reader })).status).toBe(403);
      const cookie = await staffWith('genres-writer', ['packs:write']);
      const id = `tcg${Date.now().toString(36)}`;
      const fields = { id, name: 'テストTCG', sortOrder: '90', aliases: '', iconPath: '' };
      const made = await postForm('/admin/genres', { intent: 'create', ...fields }, { cookie });
      expect(made.status).toBe(200);
      expect(made.body).toContain('「テストTCG」を追加しました（非表示）');
      expect((await get(`/gacha/${id}`)).status).toBe(404);

      const taken = await postForm('/admin/genres', { intent: 'save', ...fields, aliases: 'pokemon' }, { cookie });
      expect(taken.status).toBe(409);
      expect(taken.body).toContain('ジャンル「ポケモン」のIDか別名として使われています');
      const badIcon = await postForm(
        '/admin/genres',
        { intent: 'save', ...fields, iconPath: 'https://x/y.svg' },
        { cookie },
      );
      expect(badIcon.status).toBe(400);
      expect(badIcon.body).toContain('サイト内のパス');

      const shown = await postForm(
        '/admin/genres',
        { intent: 'save', ...fields, aliases: `old-${id}, ＯＬＤ2-${id}`.normalize('NFKC'), visible: 'on' },
        { cookie },
      );
      expect(shown.status).toBe(200);
      expect((await get(`/gacha/${id}`)).status).toBe(200);
      const moved = await get(`/gacha/old-${id}`);
      expect(moved.status).toBeGreaterThanOrEqual(300);
      expect(moved.status).toBeLessThan(400);
      expect(moved.location).toContain(`/gacha/${id}`);

      // Hidden again, so other tests' genre tabs stay as they were.
      expect((await postForm('/admin/genres', { intent: 'save', ...fields }, { cookie })).status).toBe(200);
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, id))
        .orderBy(asc(adminAuditLog.id));
      expect(audit.map((a) => a.action)).toEqual(['genre.set', 'genre.set', 'genre.set']);
    });
  },
);
