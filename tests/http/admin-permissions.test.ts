// The permission matrix over the admin area: for every page, list and action, one staff member (with
// the second factor) holding every permission but the one it needs is refused with 403, and holding
// only that one gets through (a page: 200; an action with harmless bad input: a 4xx other than 403,
// so nothing changed either way). Permissions are read fresh on every request, so the test changes
// the member's rows between requests.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { staffPermissions, users } from '#db/schema';
import { ADMIN_PERMISSIONS, type AdminPermission } from '#modules/admin';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { ADMIN_MATRIX_ACTIONS, ADMIN_MATRIX_PAGES } from '#tests/admin-routes';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

// The pages and actions, and the routes other files cover: tests/support/admin-routes.ts (app/admin-routes.test.ts
// fails when an /admin route is in neither).
const PAGES = ADMIN_MATRIX_PAGES;
const ACTIONS = ADMIN_MATRIX_ACTIONS;

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

      for (const [path, needed] of PAGES) {
        // A page that any of several permissions opens: refused with all the others, open with each alone.
        const anyOf = [needed].flat();
        await hold(ADMIN_PERMISSIONS.filter((q) => !anyOf.includes(q)));
        const refused = await get(path, { cookie });
        expect(refused.status, `${path} without ${anyOf.join(' or ')}`).toBe(403);
        for (const permission of anyOf) {
          await hold([permission]);
          expect((await get(path, { cookie })).status, `${path} with only ${permission}`).toBe(200);
        }
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
