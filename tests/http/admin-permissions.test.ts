// The permission matrix over the admin area: for every page, list and action, one staff member (with
// the second factor) holding every permission but the one it needs is refused with 403, and holding
// only that one gets through (a page: 200; an action with harmless bad input: a 4xx other than 403,
// so nothing changed either way). Permissions are read fresh on every request, so the test changes
// the member's rows between requests.
import { describe, it, expect, inject, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { staffPermissions, users } from '#db/schema';
import { ADMIN_PERMISSIONS, type AdminPermission } from '#modules/admin';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';

const databaseUrl = inject('shopDatabaseUrl');
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: inject('shopDataDir'), poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

/** Each page or download and the permission it needs. */
const PAGES: [string, AdminPermission][] = [
  ['/admin/members', 'members:read'],
  ['/admin/members/approvals', 'coins:grant'],
  ['/admin/shipping', 'shipping:read'],
  ['/admin/packs', 'packs:write'],
  ['/admin/packs/stellar-pokemon-001', 'packs:write'],
  ['/admin/stock', 'packs:write'],
  ['/admin/orders', 'orders:read'],
  ['/admin/signals', 'signals:read'],
  ['/admin/genres', 'packs:write'],
  ['/admin/coin-packs', 'packs:write'],
  ['/admin/promo-codes', 'promo:write'],
  ['/admin/mail', 'mail:write'],
  ['/admin/invitations', 'members:read'],
  ['/admin/banners', 'content:write'],
  ['/admin/content', 'content:write'],
  ['/admin/reports/unused-paid', 'orders:read'],
  ['/admin/inquiries', 'inquiries:read'],
  ['/admin/inquiries/templates', 'inquiries:read'],
  ['/admin/audit', 'audit:read'],
  ['/admin/staff', 'staff:write'],
  ['/admin/maintenance', 'shop:write'],
  ['/admin/exports/members.csv', 'members:read'],
  ['/admin/exports/draws.csv', 'members:read'],
  ['/admin/exports/ledger.csv', 'members:read'],
  ['/admin/exports/orders.csv', 'orders:read'],
  ['/admin/exports/shipping.csv', 'shipping:read'],
];

/** Each action with input it refuses (so nothing changes when it is let through) and its permission. */
const ACTIONS: [string, Record<string, string>, AdminPermission][] = [
  ['/admin/packs', { id: 'Bad Id', genreId: '', title: '', description: '' }, 'packs:write'],
  ['/admin/packs/stellar-pokemon-001', { intent: 'nothing' }, 'packs:write'],
  ['/admin/genres', { intent: 'save', id: '', name: '' }, 'packs:write'],
  ['/admin/coin-packs', { intent: 'save', id: '', name: '' }, 'packs:write'],
  ['/admin/promo-codes', { intent: 'create', code: '', label: '' }, 'promo:write'],
  ['/admin/mail', { intent: 'send', audience: 'broadcast', subject: '' }, 'mail:write'],
  ['/admin/stock', { intent: 'receive', cardName: '', count: '0' }, 'packs:write'],
  ['/admin/staff', { intent: 'invite', email: 'not-an-address', role: 'staff' }, 'staff:write'],
  ['/admin/maintenance', { intent: 'nothing' }, 'shop:write'],
  ['/admin/orders/00000000-0000-4000-8000-000000000000', { intent: 'refund', reason: 'x' }, 'orders:refund'],
  ['/admin/inquiries/templates', { intent: 'nothing' }, 'inquiries:write'],
  ['/admin/content', { type: 'nothing', uid: '', title: '' }, 'content:write'],
  // The page itself also opens with reports:read (the economy view), so only its actions are in the matrix.
  ['/admin/farm', { intent: 'nothing' }, 'farm:write'],
];

describe.skipIf(!databaseUrl)(
  `the admin area's permission matrix${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('refuses every page and action without its permission, and lets it through with only that one', async () => {
      const db = handle!.db;
      const email = uniqueEmail('matrix');
      const page = await signUpByForm({ name: 'けんげん', email, password: 'matrix-pass-1', agreeToTerms: 'on' });
      const cookie = cookieFrom(page.headers);
      const [me] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      await db.update(users).set({ role: 'staff', twoFactorEnabled: true }).where(eq(users.id, me!.id));
      const hold = async (permissions: readonly AdminPermission[]) => {
        await db.delete(staffPermissions).where(eq(staffPermissions.memberId, me!.id));
        if (permissions.length)
          await db
            .insert(staffPermissions)
            .values(permissions.map((permission) => ({ memberId: me!.id, permission, grantedBy: 'test' })));
      };
      const allBut = (p: AdminPermission) => ADMIN_PERMISSIONS.filter((q) => q !== p);

      for (const [path, permission] of PAGES) {
        await hold(allBut(permission));
        const refused = await get(path, { cookie });
        expect(refused.status, `${path} without ${permission}`).toBe(403);
        await hold([permission]);
        expect((await get(path, { cookie })).status, `${path} with only ${permission}`).toBe(200);
      }
      for (const [path, fields, permission] of ACTIONS) {
        await hold(allBut(permission));
        const refused = await postForm(path, fields, { cookie });
        expect(refused.status, `POST ${path} without ${permission}`).toBe(403);
        await hold([permission]);
        const allowed = await postForm(path, fields, { cookie });
        expect(allowed.status, `POST ${path} with only ${permission}`).not.toBe(403);
        expect(allowed.status, `POST ${path} with only ${permission}`).toBeGreaterThanOrEqual(400);
        expect(allowed.status, `POST ${path} with only ${permission}`).toBeLessThan(500);
      }
      // With nothing at all, the home page still opens (each section shows only what is held).
      await hold([]);
      expect((await get('/admin', { cookie })).status).toBe(200);
    });
  },
);
