// The accounts a journey needs beside the running shop (PostgreSQL only: roles and coins are written to the
// shop's own database): a member signed up through the form with paid coins, an admin, and staff. Each signs up in
// the browser as a person would; only the role and the coins are set directly.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import type { Database } from '#db/client';
import { users } from '#db/schema';
import { grantCoins } from '#modules/wallet';
import { TEST_RULES } from '#tests/fixtures';
import { uniqueEmail } from '#tests/http';
import { runAdminCommand } from '../../scripts/shop-admin';
import { setUpStaffTotp, signUpInBrowser } from './browser';

/**
 * A member signed up in `page`, holding `paid` paid coins (a purchase's grant). Answers their email and id.
 * @example const member = await signUpMemberWithCoins(phone.page, db, { name: 'ひく', label: 'draw', paid: 1_000 })
 */
export async function signUpMemberWithCoins(
  page: Page,
  db: Database,
  member: { name: string; label: string; paid: number },
): Promise<{ email: string; id: string }> {
  const email = uniqueEmail(member.label);
  await signUpInBrowser(page, { name: member.name, email });
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await grantCoins(db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId: row!.id,
    kind: 'paid',
    amount: member.paid,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `e2e:${email}`,
  });
  return { email, id: row!.id };
}

/**
 * An admin signed up in `page` (the role and a second factor set beside the shop). Answers their email.
 * @example await signUpAdmin(desk.page, db, { name: 'かんり', label: 'pr-admin' })
 */
export async function signUpAdmin(page: Page, db: Database, admin: { name: string; label: string }): Promise<string> {
  const email = uniqueEmail(admin.label);
  await signUpInBrowser(page, { name: admin.name, email });
  await db.update(users).set({ role: 'admin', twoFactorEnabled: true }).where(eq(users.email, email));
  return email;
}

/**
 * A staff member signed up in `page` with `permissions`, granted as an operator does (`staff:grant`), who then sets
 * up the second factor the admin area asks for at `path`. Answers their email.
 * @example await signUpStaff(desk.page, db, { name: '天井担当', label: 'ceiling', password: 'pw-2026-x', permissions: 'packs:write' })
 */
export async function signUpStaff(
  page: Page,
  db: Database,
  staff: { name: string; label: string; password: string; permissions: string; path?: string },
): Promise<string> {
  const email = uniqueEmail(staff.label);
  await signUpInBrowser(page, { name: staff.name, email, password: staff.password });
  const said: string[] = [];
  const code = await runAdminCommand(
    db,
    ['staff:grant', '--member', email, '--role', 'staff', '--permissions', staff.permissions],
    (line) => said.push(line),
    { lifetimes: TEST_RULES.coinLifetimes },
  );
  if (code !== 0) throw new Error(`staff:grant failed: ${said.join('\n')}`);
  await page.goto(staff.path ?? '/admin');
  await setUpStaffTotp(page, staff.password);
  return email;
}
