// A question reaches the shop and is answered. On a phone, a member opens お問い合わせ from the footer,
// finds their address filled in, names their draw, writes, attaches a screenshot (previewed), and
// sends it: the reference number appears. On a desktop, a staff member with the inquiry permissions
// finds it at /admin/inquiries, sees the screenshot, adds a reply template, inserts it into the
// answer, and sends it: the member's mailbox (the outbox here) holds the answer. axe on every screen.
// The staff role is set beside the running shop (PostgreSQL only).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { randomUUID } from 'node:crypto';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { TEST_RULES } from '#tests/fixtures';
import { uniqueEmail } from '#tests/http';
import { SHIPPING_TEST_PACK } from '#tests/shipping-http';
import { runAdminCommand } from '../scripts/shop-admin';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

async function command(args: string[]) {
  const said: string[] = [];
  const code = await runAdminCommand(handle!.db, args, (line) => said.push(line), {
    lifetimes: TEST_RULES.coinLifetimes,
  });
  expect(code, said.join('\n')).toBe(0);
}

async function outbox(baseURL: string, email: string) {
  const response = await fetch(`${baseURL}/dev/outbox.json?to=${encodeURIComponent(email)}`);
  return ((await response.json()) as { messages: { template: string; text: string }[] }).messages;
}

describe('an inquiry sent and answered', () => {
  it.skipIf(!databaseUrl)(
    `member on a phone asks, the desk on a desktop answers with a template${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set roles beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const member = await openContext(shop.browser, 'phone', shop.baseURL);
      const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        // ── The member has drawn once, so the form offers that draw.
        const email = uniqueEmail('contact-journey');
        await signUpInBrowser(member.page, { name: 'といあわせ', email });
        await command(['coins:grant', '--member', email, '--amount', '100', '--kind', 'paid', '--reason', 'テスト']);
        const drawn = await member.page.request.post(`/api/v1/gachas/${SHIPPING_TEST_PACK}/draws`, {
          data: { count: 1 },
          headers: { origin: shop.baseURL, 'idempotency-key': randomUUID() },
        });
        expect(drawn.status()).toBe(201);

        await member.page.goto('/tokushoho');
        await waitForHydration(member.page);
        await member.page.getByRole('link', { name: 'お問い合わせフォーム' }).click();
        await member.page.getByRole('heading', { name: 'お問い合わせ', level: 1 }).waitFor();
        await expect.poll(() => member.page.getByLabel('メールアドレス').inputValue()).toBe(email);
        await member.page.getByLabel('お問い合わせの種類').selectOption('draw');
        const related = member.page.getByLabel('関連するご利用（任意）');
        const drawOption = related.locator('optgroup[label="オリパを引いた結果"] option').first();
        await related.selectOption((await drawOption.getAttribute('value'))!);
        await member.page.getByLabel('件名').fill('結果の表示について');
        await member.page
          .getByLabel('お問い合わせ内容')
          .fill('1回引いたところ、結果画面が一瞬で消えてしまいました。\nスクリーンショットを添付します。');
        const attached = await sharp({ create: { width: 780, height: 1688, channels: 3, background: '#fde7ee' } })
          .png()
          .toBuffer();
        await member.page
          .getByLabel('画像（任意・3枚まで）')
          .setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: attached });
        await member.page.getByRole('list', { name: '選んだ画像' }).getByRole('img').waitFor();
        await expectNoSeriousAxeViolations(member.page, 'contact form (phone)');
        await screenshot(member.page, `contact-phone.png`, { fullPage: true });
        await member.page.getByRole('button', { name: '送信する' }).click();
        await member.page.getByRole('heading', { name: 'お問い合わせを受け付けました' }).waitFor();
        const reference = (await member.page.getByTestId('inquiry-reference').textContent())!.trim();
        expect(reference).toMatch(/^Q-\d{8}-[0-9A-Z]{4}$/);
        await expectNoSeriousAxeViolations(member.page, 'contact sent (phone)');
        expect((await outbox(shop.baseURL, email))[0]).toMatchObject({ template: 'inquiry-received' });

        // ── A staff member with the inquiry permissions (second factor set, as the setup leaves it).
        const staffEmail = uniqueEmail('contact-desk');
        await signUpInBrowser(desk.page, { name: 'サポート担当', email: staffEmail });
        await command([
          'staff:grant',
          '--member',
          staffEmail,
          '--role',
          'staff',
          '--permissions',
          'inquiries:read,inquiries:write',
        ]);
        await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.email, staffEmail));

        await desk.page.goto('/admin');
        await waitForHydration(desk.page);
        await desk.page
          .getByRole('navigation', { name: '管理メニュー' })
          .getByRole('link', { name: 'お問い合わせ' })
          .click();
        await desk.page.getByRole('heading', { name: 'お問い合わせ', level: 1 }).waitFor();
        await desk.page.getByRole('link', { name: reference }).waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'inquiry list (desktop)');
        await screenshot(desk.page, `admin-inquiries-desktop.png`, { fullPage: true });

        // A template first, then the answer from it.
        await desk.page.getByRole('link', { name: '回答テンプレート' }).click();
        await desk.page.getByRole('heading', { name: '回答テンプレート', level: 1 }).waitFor();
        await waitForHydration(desk.page);
        await desk.page.getByLabel('テンプレート名').fill('表示の不具合（調査中）');
        await desk.page.getByLabel('本文').fill('ご連絡ありがとうございます。表示の不具合について調査しております。');
        await desk.page.getByRole('button', { name: '追加する' }).click();
        await desk.page.getByText('テンプレートを追加しました。').waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'reply templates (desktop)');

        await desk.page.goto('/admin/inquiries');
        await desk.page.getByRole('link', { name: reference }).click();
        await desk.page.getByRole('heading', { name: reference, level: 1 }).waitFor();
        await waitForHydration(desk.page);
        await desk.page.getByText('スクリーンショットを添付します。').waitFor();
        const thumbnail = desk.page.getByRole('img', { name: /添付画像1/ });
        await expect.poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        await desk.page
          .getByTestId('inquiry-related')
          .getByText(/オリパを引いた結果/)
          .waitFor();
        await desk.page.getByLabel('テンプレート').selectOption({ label: '表示の不具合（調査中）' });
        await desk.page.getByRole('button', { name: 'テンプレートを挿入' }).click();
        const answer = desk.page.getByLabel('回答', { exact: true });
        await expect.poll(() => answer.inputValue()).toContain('表示の不具合について調査しております。');
        await answer.press('End');
        await answer.pressSequentially('\n修正まで今しばらくお待ちください。');
        await desk.page.mouse.move(0, 0); // axe reads the page at rest, not a hovered button
        await expectNoSeriousAxeViolations(desk.page, 'inquiry (desktop)');
        await screenshot(desk.page, `admin-inquiry-desktop.png`, { fullPage: true });
        await desk.page.getByRole('button', { name: '回答を送信' }).click();
        await desk.page.getByText(/回答を送信しました/).waitFor();
        await desk.page.getByTestId('inquiry-status').filter({ hasText: 'お客様の返信待ち' }).waitFor();

        const mails = await outbox(shop.baseURL, email);
        expect(mails[0]).toMatchObject({ template: 'inquiry-reply' });
        expect(mails[0]!.text).toContain('修正まで今しばらくお待ちください。');
        expect(mails[0]!.text).toContain(reference);
        expect(member.problems).toEqual([]);
        expect(desk.problems).toEqual([]);
      } finally {
        await member.context.close();
        await desk.context.close();
      }
    },
  );
});
