// A member's whole account life, in Japanese, in Chromium, at phone size: sign up → confirm from the
// mail in the outbox → add a phone number with the SMS code → set up TOTP → sign out → sign in with
// the second step → link and unlink LINE → reset the password by mail (then the second step again) → 退会. axe finds no
// serious violation on any of the pages.
import { describe, it, expect } from 'vitest';
import { createOTP } from '@better-auth/utils/otp';
import { base32 } from '@better-auth/utils/base32';
import type { Page } from 'playwright-core';
import { mailLinkTo, shopUrl } from '#tests/http';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  confirmSignUpInBrowser,
} from './support/browser';

const shop = useBrowser();

/** The newest SMS code to a number, read from the developer outbox. */
async function smsCodeTo(number: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${shopUrl()}/dev/outbox.json?to=${encodeURIComponent(number)}`);
    const { messages } = (await response.json()) as { messages: { code: string | null }[] };
    const code = messages.find((m) => m.code)?.code;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no SMS code to ${number}`);
}

/** The authenticator app: the current code for the key shown for manual entry. */
const totpOf = (manualKey: string) =>
  createOTP(base32.decode(manualKey.replace(/\s+/g, '')), { digits: 6, period: 30 }).totp();

async function secondStep(page: Page, manualKey: string) {
  await page.waitForURL((url) => url.pathname === '/auth/sign_in' && url.searchParams.get('step') === 'code');
  await page.getByRole('heading', { name: '二段階認証' }).waitFor();
  await page.getByLabel('認証コード（6桁）').fill(await totpOf(manualKey));
  await page.getByRole('button', { name: '認証する' }).click();
}

describe('a member’s account, from sign-up to 退会', () => {
  it('signs up, adds a phone, sets up TOTP, signs in with the code, resets the password and leaves', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    const email = `identity-${Date.now().toString(36)}@example.jp`;
    // 0905…: a mobile range that is allocated whatever the clock's digits (0900… is not a valid number).
    const number = `0905${String(Date.now()).slice(-7)}`;
    const e164 = `+81${number.slice(1)}`;
    let password = 'first-pass-2026';
    try {
      // 1. sign up and confirm from the mail
      await page.goto('/auth/sign_up');
      await waitForHydration(page);
      await page.getByLabel('ニックネーム').fill('あかうんと');
      await page.getByLabel('メールアドレス').fill(email);
      await page.getByLabel('パスワード', { exact: true }).fill(password);
      await page.getByRole('checkbox', { name: /利用規約/ }).check();
      await page.getByRole('button', { name: '登録する' }).click();
      await page.getByRole('heading', { name: '確認メールを送信しました' }).waitFor();
      await expectNoSeriousAxeViolations(page, 'verification sent');
      await confirmSignUpInBrowser(page, email);
      await page.waitForURL((url) => url.pathname === '/');

      // 2. a phone number with the SMS code
      await page.goto('/mypage/settings/phonenumber');
      await waitForHydration(page);
      await page.getByLabel('携帯電話番号').fill(number);
      await page.getByRole('button', { name: '認証コードを送信' }).click();
      await page.getByLabel('認証コード（6桁）').fill(await smsCodeTo(e164));
      await expectNoSeriousAxeViolations(page, 'phone code');
      await page.getByRole('button', { name: '認証する' }).click();
      await page
        .getByText(/認証済み/)
        .first()
        .waitFor();

      // 3. TOTP: the password, the key, the first code; the backup codes are shown once
      await page.goto('/mypage/settings/security');
      await waitForHydration(page);
      await page.getByLabel('パスワード').fill(password);
      await page.getByRole('button', { name: '設定を始める' }).click();
      const manualKey = (await page.getByTestId('manual-key').textContent())!.trim();
      expect(manualKey).toMatch(/^[A-Z2-7 ]+$/);
      await expectNoSeriousAxeViolations(page, 'totp setup');
      await page.getByLabel('認証コード（6桁）').fill(await totpOf(manualKey));
      await page.getByRole('button', { name: '設定を完了する' }).click();
      await page
        .getByText(/バックアップコード/)
        .first()
        .waitFor();

      // 4. sign out, then sign in: the password, then the code
      await page.goto('/mypage');
      await page.getByRole('button', { name: 'ログアウト' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/auth/sign_in?redirect=%2Fmypage');
      await waitForHydration(page);
      await page.getByLabel('メールアドレス').first().fill(email);
      await page.getByLabel('パスワード', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'ログイン', exact: true }).click();
      await expectNoSeriousAxeViolations(page, 'second step');
      await secondStep(page, manualKey);
      await page.waitForURL((url) => url.pathname === '/mypage');

      // 4b. link LINE (its stand-in's consent page) and unlink it again, with a confirmation
      await page.goto('/mypage/settings/unlink');
      await waitForHydration(page);
      await expectNoSeriousAxeViolations(page, 'sign-in methods');
      await page.getByRole('button', { name: 'LINEと連携する' }).click();
      // A LINE user of its own (the sandbox's preset LINE user may be linked to another test's member).
      await page.getByRole('button', { name: '新しいLINEユーザーとして許可する' }).click();
      await page.getByText('LINEを連携しました。').waitFor();
      await page.getByRole('link', { name: '解除', exact: true }).click();
      await page.getByText('LINEの連携を解除しますか？').waitFor();
      await page.getByRole('button', { name: '解除する' }).click();
      await page.getByText('LINEの連携を解除しました。').waitFor();
      await page.goto('/mypage');

      // 5. reset the password by mail (signed out), then sign in with the new one and the code
      await page.getByRole('button', { name: 'ログアウト' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/auth/passwd');
      await waitForHydration(page);
      await page.getByLabel('メールアドレス').fill(email);
      await page.getByRole('button', { name: '再設定メールを送る' }).click();
      await page.getByText('再設定用のメールをお送りしました', { exact: false }).waitFor();
      const reset = new URL(await mailLinkTo(email, 'resetPassword'));
      await page.goto(reset.pathname + reset.search);
      await waitForHydration(page);
      password = 'second-pass-2026';
      await page.getByLabel('新しいパスワード', { exact: true }).fill(password);
      await page.getByLabel('新しいパスワード（確認）').fill(password);
      await expectNoSeriousAxeViolations(page, 'new password');
      await page.getByRole('button', { name: 'パスワードを変更する' }).click();
      await page.getByRole('heading', { name: 'パスワードを変更しました' }).waitFor();
      await page.getByRole('link', { name: 'ログイン画面へ' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/sign_in');
      await waitForHydration(page);
      await page.getByLabel('メールアドレス').first().fill(email);
      await page.getByLabel('パスワード', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'ログイン', exact: true }).click();
      await secondStep(page, manualKey);
      await page.waitForURL((url) => url.pathname === '/');

      // 6. 退会: the phrase and the password
      await page.goto('/mypage/settings/delete');
      await waitForHydration(page);
      await expectNoSeriousAxeViolations(page, 'delete');
      await page.getByLabel(/退会する」と入力/).fill('退会する');
      await page.getByLabel('パスワード').fill(password);
      await page.getByRole('button', { name: '退会する' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByText('退会手続きが完了しました').waitFor();
      const cookies = await context.cookies();
      expect(cookies.some((c) => c.name.endsWith('session_token') && c.value)).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
