import { chromium } from 'playwright-core';
import { execSync } from 'node:child_process';
const base = 'http://localhost:3995';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const psql = (q) => execSync(`psql -h 127.0.0.1 -U postgres -d shot -tAc "${q}"`).toString().trim();
async function signUp(page, email) {
  await page.goto(base + '/auth/sign_up');
  await page.fill('input[name=name]', 'うんえい太郎');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'password-1234');
  await page.check('input[name=agreeToTerms]');
  await page.click('button[type=submit]');
  await page.waitForTimeout(1500);
  const r = await (await fetch(`${base}/dev/outbox.json?to=${encodeURIComponent(email)}`)).json();
  const link = r.messages.flatMap((m) => m.links ?? []).find((l) => l.includes('verifyEmail'));
  await page.goto(link);
  await page.click('form button[type=submit]');
  await page.waitForTimeout(1500);
}
const which = process.argv[2] ?? 'admin';
const email = `boss-${Date.now()}@example.jp`;
const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'ja-JP' });
const page = await ctx.newPage();
await signUp(page, email);
const id = psql(`select id from users where email='${email}'`);
psql(`update users set role='admin', two_factor_enabled=true where id='${id}'`);
const shots = [['/admin', 'admin-home'], ['/admin/staff', 'admin-staff'], ['/admin/audit', 'admin-audit']];
// an invitation so that lists have content
await page.goto(base + '/admin/staff');
await page.fill('input[name=email]', 'new-staff@example.jp');
await page.check('#invite-shipping\\:write');
await page.click('text=招待メールを送る');
await page.waitForTimeout(1500);
await page.screenshot({ path: '/tmp/shots/admin-staff-after-invite.png', fullPage: true });
for (const [path, name] of shots) {
  for (const [w, h, tag] of [[1366, 900, 'desktop'], [820, 1180, 'tablet']]) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(base + path);
    await page.screenshot({ path: `/tmp/shots/${name}-${tag}.png`, fullPage: true });
  }
}
await browser.close();
