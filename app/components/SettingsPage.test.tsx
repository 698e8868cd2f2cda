// The settings pages' frame as members meet it: one heading, the way back to マイページ, a done notice
// announced as a status only when there is one, and the form's error first in a form that posts.
import { describe, it, expect } from 'vitest';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { SettingsForm, SettingsNotice, SettingsPage } from './SettingsPage';

/** Server-rendered markup inside a router (the form needs one), as the page's first response carries it. */
function rendered(page: ReactNode): string {
  const Stub = createRoutesStub([{ path: '/mypage/settings/profile', Component: () => page }]);
  return renderToStaticMarkup(<Stub initialEntries={['/mypage/settings/profile']} />);
}

describe('SettingsPage', () => {
  it('shows one heading with its lead, the content, then the link back to マイページ', () => {
    const html = rendered(
      <SettingsPage title="プロフィール" lead="ニックネームはランキングに表示されます。">
        <p>中身</p>
      </SettingsPage>,
    );
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html).toContain(
      '>プロフィール</h1><p class="mt-1 text-sm text-muted">ニックネームはランキングに表示されます。</p>',
    );
    expect(html.indexOf('中身')).toBeLessThan(html.indexOf('マイページへ戻る'));
    expect(html).toMatch(/<a [^>]*href="\/mypage"[^>]*>マイページへ戻る<\/a>/);
  });

  it('announces a notice as a status, and renders nothing without one', () => {
    expect(rendered(<SettingsNotice message="保存しました。" />)).toMatch(/<p role="status"[^>]*>保存しました。<\/p>/);
    expect(rendered(<SettingsNotice message={undefined} />)).toBe('');
    expect(rendered(<SettingsNotice message={null} />)).toBe('');
  });

  it('posts the form to the page itself, without the browser’s own checks, its error first as an alert', () => {
    const html = rendered(
      <SettingsForm error="送信できませんでした。">
        <input name="name" />
      </SettingsForm>,
    );
    expect(html).toMatch(/<form [^>]*noValidate=""[^>]*action="\/mypage\/settings\/profile" method="post">/);
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf('name="name"'));
    expect(html).toContain('送信できませんでした。');
    expect(rendered(<SettingsForm>{null}</SettingsForm>)).not.toContain('role="alert"');
  });
});
