// The messages' words: every template renders in Japanese with the site's name, escapes its
// variables in HTML, carries its links in the text, and says what to do when it was not asked for.
import { describe, expect, it } from 'vitest';
import { CARRIER_TRACKING_HOSTS } from './mail-words';
import {
  MAIL_TEMPLATES,
  MAIL_TEMPLATE_VARS,
  escapeHtml,
  renderMail,
  renderSms,
  type MailTemplate,
  type SiteIdentity,
} from './templates';

const site: SiteIdentity = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const link = (code: string) => `https://oripa.example.jp/auth/action?mode=resetPassword&oobCode=${code}`;

/** Plausible variables for each template, every one holding something HTML must escape. */
function varsFor(template: MailTemplate): Record<string, string> {
  const all: Record<string, string> = {
    url: link("abc'def&x=1"),
    signInUrl: 'https://oripa.example.jp/auth/sign_in?next=%2F&x=1',
    resetUrl: link("r'1"),
    newEmail: 'new"<script>alert(1)</script>@example.jp',
    role: 'スタッフ<b>',
    days: '<7>',
    items: '3<枚>',
    promisedDate: '2027年5月10日（月）<',
    fee: '無料&x',
    carrier: 'ヤマト運輸<',
    trackingNumber: "1234'5678",
    trackingUrl: 'https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number00=1&number01=123456789012',
    refundCoins: '<100>',
    coins: '1,000<',
    keepUntil: '2027年7月1日（木）"',
    cardName: 'ピカチュウ <SAR>',
    substituteName: 'リザードン "SAR"&',
    reason: '在庫の不足により<',
    reference: 'Q-20261124-8K3F<',
    category: '<その他>',
    reply: 'ご回答です。\n<b>二行目</b> & "引用"',
    subject: 'ようこそ <b>&</b>',
    kind: '利用停止<',
    meaning: '複数の<アカウント>',
    until: '<2027/1/5 15:00>まで',
    policyUrl: 'https://oripa.example.jp/account-policy?x=1&y=2',
    appealUntil: '2027/2/4 15:00"',
    outcome: '制限を解除<',
    statement: '確認の結果、<b>誤り</b>でした & "解除"',
    paid: '3,000<',
    free: '120&x',
    refundJpy: '3,000"',
    prizes: "2'",
    salesStop: '2027/01/31 23:59<',
    deadline: '2027/03/31 23:59&x',
    how: 'ログインして<口座>をご登録ください&',
    noticeUrl: 'https://oripa.example.jp/closure?x=1&y=2',
  };
  return Object.fromEntries(MAIL_TEMPLATE_VARS[template].map((name) => [name, all[name]!]));
}

describe('mail templates', () => {
  it.each(MAIL_TEMPLATES)('%s: the site name in the subject, links in the text, an if-not-you line', (template) => {
    const vars = varsFor(template);
    const mail = renderMail(template, vars, site);
    expect(mail.subject).toMatch(/^【オリパ ステラ】/);
    expect(mail.text).toContain('オリパ ステラ');
    expect(mail.text).toContain(site.origin);
    for (const value of Object.values(vars)) expect(mail.text).toContain(value); // text is not HTML: as given
    expect(mail.text).toMatch(/お心当たりがない場合/);
    expect(mail.html).toMatch(/お心当たりがない場合/);
    expect(mail.html).toContain('<html lang="ja">');
  });

  it.each(MAIL_TEMPLATES)('%s: every variable is escaped in the HTML, and no raw markup gets through', (template) => {
    const vars = varsFor(template);
    const { html } = renderMail(template, vars, site);
    for (const value of Object.values(vars)) {
      if (/[<>&"']/.test(value)) expect(html).not.toContain(value);
      expect(html).toContain(escapeHtml(value));
    }
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/<img\b/i); // no external images
    // Every link is the shop's; a shipped notice may also link the carrier's tracking page, nothing else.
    const others = template === 'shipping-shipped' ? String.raw`|toi\.kuronekoyamato\.co\.jp/` : '';
    expect(html).not.toMatch(new RegExp(String.raw`https?://(?!oripa\.example\.jp` + others + ')'));
  });

  it('links a shipped notice only to a carrier’s tracking page over https', () => {
    const vars = { ...varsFor('shipping-shipped') };
    for (const trackingUrl of [
      'https://evil.example/track?n=1',
      'http://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number01=1',
      'javascript:alert(1)',
    ])
      expect(() => renderMail('shipping-shipped', { ...vars, trackingUrl }, site)).toThrow(RangeError);
    for (const host of CARRIER_TRACKING_HOSTS)
      expect(renderMail('shipping-shipped', { ...vars, trackingUrl: `https://${host}/x?n=1` }, site).text).toContain(
        host,
      );
  });

  it('says a canceled request’s fee was given back only when there was one', () => {
    const base = { url: 'https://oripa.example.jp/mypage/shipping/1', items: '2' };
    expect(renderMail('shipping-canceled', { ...base, refundCoins: '300' }, site).text).toContain(
      '発送手数料 300コインは返却しました',
    );
    expect(renderMail('shipping-canceled', { ...base, refundCoins: '0' }, site).text).not.toContain('返却');
  });

  it('the button is the primary pink with a large white label, and its link is the one given', () => {
    const { html } = renderMail('password-reset', { url: link('XYZ') }, site);
    expect(html).toContain('background:#ef3a6e');
    expect(html).toMatch(/font-size:20px;font-weight:bold;color:#ffffff/);
    expect(html).toContain(`href="${escapeHtml(link('XYZ'))}"`);
    expect(renderMail('password-reset', { url: link('XYZ') }, site).text).toContain(link('XYZ'));
  });

  it('the site name in the HTML is escaped too', () => {
    const odd = { name: 'A&B <shop>', origin: 'https://oripa.example.jp' };
    const mail = renderMail('account-deleted', {}, odd);
    expect(mail.subject).toBe('【A&B <shop>】退会手続き完了のお知らせ');
    expect(mail.html).toContain('A&amp;B &lt;shop&gt;');
    expect(mail.html).not.toContain('<shop>');
  });

  it('the change notice goes to the old address, names the new one and carries the undo link', () => {
    const undo = link('recoverEmail');
    const mail = renderMail('email-change-notice', { newEmail: 'new@example.jp', url: undo }, site);
    expect(mail.text).toContain('new@example.jp');
    expect(mail.text).toContain(undo);
    expect(mail.html).toContain('元に戻す');
    expect(mail.subject).toContain('メールアドレスを変更しました');
  });

  it('the approval request goes to the old address with its link', () => {
    const approve = link('approveEmailChange');
    const mail = renderMail('email-change-confirm', { newEmail: 'new@example.jp', url: approve }, site);
    expect(mail.text).toContain(approve);
    expect(mail.text).toContain('new@example.jp');
    expect(mail.subject).toContain('承認');
  });

  it('refuses a missing, an unknown or a non-http link variable (a caller bug, not a silent blank)', () => {
    expect(() => renderMail('magic-link', {}, site)).toThrow(/needs the variable url/);
    expect(() => renderMail('magic-link', { url: link('a'), extra: 'x' }, site)).toThrow(/no variable extra/);
    expect(() => renderMail('magic-link', { url: 'javascript:alert(1)' }, site)).toThrow(/http\(s\)/);
    expect(() => renderMail('magic-link', { url: 'not a url' }, site)).toThrow(/not a URL/);
    expect(() => renderMail('magic-link', { url: 'https://oripa.example.jp/"><script>' }, site)).toThrow(/quotes/);
    expect(() => renderMail('nope' as MailTemplate, {}, site)).toThrow(/no mail template/);
  });
});

describe('SMS template', () => {
  it('is the short code message, one segment (70 characters) with the default site name', () => {
    const text = renderSms('phone-code', { code: '123456', minutes: '10' }, site);
    expect(text).toBe('【オリパ ステラ】認証コード: 123456（10分間有効）。このコードを他人に教えないでください。');
    expect([...text].length).toBeLessThanOrEqual(70);
  });

  it('refuses a code or a lifetime that is not digits', () => {
    expect(() => renderSms('phone-code', { code: '12ab56', minutes: '10' }, site)).toThrow(/code/);
    expect(() => renderSms('phone-code', { code: '123456', minutes: '0' }, site)).toThrow(/minutes/);
    expect(() => renderSms('phone-code', { code: '123456' }, site)).toThrow(/minutes/);
  });
});
