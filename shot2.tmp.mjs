import { chromium } from 'playwright-core';
const base = 'http://localhost:3995';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const email = `member-${Date.now()}@example.jp`;
const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ja-JP', deviceScaleFactor: 1 });
const page = await ctx.newPage();
await page.goto(base + '/auth/sign_up');
await page.fill('input[name=name]', 'さくら');
await page.fill('input[name=email]', email);
await page.fill('input[name=password]', 'password-1234');
await page.check('input[name=agreeToTerms]');
await page.click('button[type=submit]');
await page.waitForTimeout(1500);
const r = await (await fetch(`${base}/dev/outbox.json?to=${encodeURIComponent(email)}`)).json();
await page.goto(r.messages.flatMap((m) => m.links ?? []).find((l) => l.includes('verifyEmail')));
await page.click('form button[type=submit]');
await page.waitForTimeout(1500);
for (const p of ['security', 'delete', 'phonenumber', 'unlink', 'profile']) {
  for (const [w, h, tag] of [[390, 844, 'phone'], [1366, 900, 'desktop']]) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${base}/mypage/settings/${p}`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/shots/settings-${p}-${tag}.png`, fullPage: true });
  }
}
await browser.close();
