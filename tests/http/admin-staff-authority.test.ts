// Nobody grants what they do not hold, over HTTP (issue 28, decision 050): for every permission P, a
// staff member holding only P posts the staff page's forms to give other permissions and the admin
// role (invite and change access), and to demote or remove an admin; each answer is 403, the access
// read back from the database is unchanged, and every attempt is in the audit log as refused. The row
// P = staff:write (where the authority rules decide) is posted cell by cell; the other rows are refused
// by the page's permission check whatever is asked, so each posts the admin cells and two sampled
// permissions (every cell of every row runs through the same module functions in
// modules/admin/staff-authority.db.test.ts; the whole matrix over HTTP took two minutes here).
// Then an admin's promotion waits for a second admin on the approvals page, and the page offers only
// what the operator holds; and the auth library's own admin endpoints answer no one, however spelled.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, staffInvitations, staffPermissions, users } from '#db/schema';
import { ADMIN_PERMISSIONS, type AdminPermission } from '#modules/admin';
import { cookieFrom, get, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

/** A form post as the browser sends it (same origin, the session cookie), with repeated fields. */
async function post(path: string, fields: [string, string][], cookie: string) {
  const response = await fetch(shopUrl() + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: shopUrl(), cookie },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.text() };
}

async function signedUp(label: string, role: 'staff' | 'admin', permissions: readonly AdminPermission[] = []) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: 'けんげん', email, password: 'authority-pass-1', agreeToTerms: 'on' });
  expect(page.status).toBe(302);
  const db = handle!.db;
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await db.update(users).set({ role, twoFactorEnabled: true }).where(eq(users.id, row!.id));
  await hold(row!.id, permissions);
  return { id: row!.id, email, cookie: cookieFrom(page.headers) };
}

async function hold(memberId: string, permissions: readonly AdminPermission[]) {
  const db = handle!.db;
  await db.delete(staffPermissions).where(eq(staffPermissions.memberId, memberId));
  if (permissions.length)
    await db
      .insert(staffPermissions)
      .values(permissions.map((permission) => ({ memberId, permission, grantedBy: 'test' })));
}

async function accessOf(memberId: string) {
  const db = handle!.db;
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, memberId));
  const rows = await db
    .select({ permission: staffPermissions.permission })
    .from(staffPermissions)
    .where(eq(staffPermissions.memberId, memberId));
  return { role: row!.role, permissions: rows.map((r) => r.permission).sort() };
}

describe.skipIf(!databaseUrl)(
  `who may give staff access${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('refuses staff holding only P every other permission and the admin role, through the staff page', async () => {
      const db = handle!.db;
      const actor = await signedUp('authority-actor', 'staff');
      const target = await signedUp('authority-target', 'staff');
      const admin = await signedUp('authority-admin', 'admin');
      const invited: string[] = [];
      let attempts = 0;
      for (const held of ADMIN_PERMISSIONS) {
        await hold(actor.id, [held]);
        // The cells of one row go out a few at a time (each is refused alone; the order does not matter).
        const cells: [[string, string][], string][] = [];
        const attempt = async (fields: [string, string][], what: string) => {
          cells.push([fields, what]);
        };
        const others = ADMIN_PERMISSIONS.filter((p) => p !== held);
        const sampled = held === 'staff:write' ? others : [others[0]!, others.at(-1)!];
        for (const wanted of sampled) {
          await attempt(
            [
              ['intent', 'access'],
              ['id', target.id],
              ['role', 'staff'],
              ['permission', wanted],
            ],
            `grant ${wanted}`,
          );
          const email = uniqueEmail('authority-invitee');
          invited.push(email);
          await attempt(
            [
              ['intent', 'invite'],
              ['email', email],
              ['role', 'staff'],
              ['permission', wanted],
            ],
            `invite with ${wanted}`,
          );
        }
        const email = uniqueEmail('authority-admin-invitee');
        invited.push(email);
        await attempt(
          [
            ['intent', 'invite'],
            ['email', email],
            ['role', 'admin'],
          ],
          'invite an admin',
        );
        await attempt(
          [
            ['intent', 'access'],
            ['id', target.id],
            ['role', 'admin'],
          ],
          'promote to admin',
        );
        await attempt(
          [
            ['intent', 'access'],
            ['id', admin.id],
            ['role', 'staff'],
            ['permission', held],
          ],
          'demote an admin',
        );
        await attempt(
          [
            ['intent', 'revoke'],
            ['id', admin.id],
          ],
          'remove an admin',
        );
        for (let i = 0; i < cells.length; i += 6)
          await Promise.all(
            cells.slice(i, i + 6).map(async ([fields, what]) => {
              const answer = await post('/admin/staff', fields, actor.cookie);
              expect(answer.status, `${held}: ${what}`).toBe(403);
              attempts += 1;
            }),
          );
      }
      expect(await accessOf(target.id)).toEqual({ role: 'staff', permissions: [] });
      expect(await accessOf(admin.id)).toEqual({ role: 'admin', permissions: [] });
      expect(await db.select().from(staffInvitations).where(inArray(staffInvitations.email, invited))).toEqual([]);
      const [refused] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.actorId, actor.id), like(adminAuditLog.action, '%.refused')));
      expect(refused!.n).toBe(attempts);
      expect(attempts).toBe(2 * (ADMIN_PERMISSIONS.length - 1) + 4 + (ADMIN_PERMISSIONS.length - 1) * (2 * 2 + 4));
    }, 300_000);

    it('offers only what the operator holds, and an admin’s promotion waits for a second admin', async () => {
      const lead = await signedUp('authority-lead', 'staff', ['staff:write', 'shipping:read']);
      const junior = await signedUp('authority-junior', 'staff', ['shipping:read']);
      const page = await get('/admin/staff', { cookie: lead.cookie });
      expect(page.status).toBe(200);
      expect(page.body).toContain('あなたが持っていない権限のため付与できません');
      expect(page.body).toContain('管理者（管理者だけが申請できます）');
      const granted = await post(
        '/admin/staff',
        [
          ['intent', 'access'],
          ['id', junior.id],
          ['role', 'staff'],
          ['permission', 'shipping:read'],
          ['permission', 'staff:write'],
        ],
        lead.cookie,
      );
      expect(granted.status).toBe(200);
      expect(await accessOf(junior.id)).toEqual({ role: 'staff', permissions: ['shipping:read', 'staff:write'] });

      const asker = await signedUp('authority-asker', 'admin');
      const approver = await signedUp('authority-approver', 'admin');
      const asked = await post(
        '/admin/staff',
        [
          ['intent', 'access'],
          ['id', junior.id],
          ['role', 'admin'],
        ],
        asker.cookie,
      );
      expect(asked.status).toBe(200);
      expect(asked.body).toContain('承認すると反映されます');
      expect((await accessOf(junior.id)).role).toBe('staff');
      expect((await get('/admin/staff', { cookie: asker.cookie })).body).toContain('承認待ちの管理者の変更');

      const [request] = await handle!.db
        .select({ id: sql<string>`id` })
        .from(sql`staff_role_requests`)
        .where(sql`subject = ${junior.id} and status = 'pending'`);
      const approvals = await get('/admin/approvals', { cookie: approver.cookie });
      expect(approvals.status).toBe(200);
      expect(approvals.body).toContain('管理者の変更の承認待ち');
      expect(approvals.body).toContain(junior.email);
      const self = await post(
        '/admin/approvals',
        [
          ['intent', 'staff-approve'],
          ['id', request!.id],
        ],
        asker.cookie,
      );
      expect(self.status).toBe(403);
      expect(self.body).toContain('自分が申請した管理者の変更は承認・却下できません');
      expect((await accessOf(junior.id)).role).toBe('staff');
      const approved = await post(
        '/admin/approvals',
        [
          ['intent', 'staff-approve'],
          ['id', request!.id],
        ],
        approver.cookie,
      );
      expect(approved.status).toBe(200);
      expect(await accessOf(junior.id)).toEqual({ role: 'admin', permissions: [] });
    });

    it('opens 承認待ち to whoever can ask for an approval, each seeing only the sections of what they hold', async () => {
      const sections = {
        'coins:grant': 'コイン調整の承認待ち',
        'staff:write': '管理者の変更の承認待ち',
        'mail:write': 'プレゼント付き配信の承認待ち',
      } as const;
      for (const held of Object.keys(sections) as (keyof typeof sections)[]) {
        const operator = await signedUp(`approvals-${held.replace(':', '-')}`, 'staff', [held]);
        const page = await get('/admin/approvals', { cookie: operator.cookie });
        expect(page.status, held).toBe(200);
        for (const [permission, heading] of Object.entries(sections))
          if (permission === held) expect(page.body, `${held} sees its own section`).toContain(heading);
          else expect(page.body, `${held} does not see ${permission}'s section`).not.toContain(heading);
        expect((await get('/admin', { cookie: operator.cookie })).body).toContain('href="/admin/approvals"');
      }
      // Holding none of them: the page is refused, naming what would open it.
      const reader = await signedUp('approvals-members-read', 'staff', ['members:read']);
      // The old address (under 会員) sends a bookmark to the page, which then decides.
      const moved = await get('/admin/members/approvals', { cookie: reader.cookie });
      expect(moved.status).toBe(301);
      expect(moved.location).toBe('/admin/approvals');
      const refused = await get('/admin/approvals', { cookie: reader.cookie });
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('coins:grant / staff:write / mail:write');
    });

    it('closes better-auth’s own admin endpoints to admins and staff alike, however the path is spelled', async () => {
      // The auth library's admin plugin could set a role, create an admin or change a user without the
      // queue or the audit log: the shop answers every spelling of its paths before the library sees it.
      const admin = await signedUp('authority-api-admin', 'admin');
      const writer = await signedUp('authority-api-writer', 'staff', ['staff:write']);
      const target = await signedUp('authority-api-target', 'staff', ['shipping:read']);
      const before = await accessOf(target.id);
      const created = uniqueEmail('authority-api-created');
      const calls: [string, Record<string, unknown>][] = [
        ['set-role', { userId: target.id, role: 'admin' }],
        ['update-user', { userId: target.id, data: { role: 'admin' } }],
        ['create-user', { email: created, password: 'authority-pass-1', name: 'つくる', role: 'admin' }],
        ['remove-user', { userId: target.id }],
        ['ban-user', { userId: target.id }],
        ['impersonate-user', { userId: target.id }],
      ];
      const spellings = (endpoint: string) => [
        `/api/auth/admin/${endpoint}`,
        `/api/auth/Admin/${endpoint}`,
        `/api/auth//admin/${endpoint}`,
        `/api/auth/admin//${endpoint}`,
        `/api/auth/%61dmin/${endpoint}`,
        `/api/auth/admin%2F${endpoint}`,
        `/api/auth/admin/${endpoint}/`,
      ];
      for (const who of [admin, writer]) {
        for (const [endpoint, body] of calls) {
          for (const path of spellings(endpoint)) {
            const response = await fetch(shopUrl() + path, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/json', origin: shopUrl(), cookie: who.cookie },
              body: JSON.stringify(body),
            });
            const answer = await response.text();
            expect([403, 404], `${path}: ${response.status} ${answer}`).toContain(response.status);
            expect(answer.length, path).toBeGreaterThan(0);
          }
        }
      }
      expect(await accessOf(target.id)).toEqual(before);
      const db = handle!.db;
      expect(await db.select({ id: users.id }).from(users).where(eq(users.email, created))).toEqual([]);
      const [banned] = await db.select({ banned: users.banned }).from(users).where(eq(users.id, target.id));
      expect(banned?.banned ?? false).toBe(false);
    });
  },
);
