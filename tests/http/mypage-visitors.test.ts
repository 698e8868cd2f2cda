// /mypage and every page under it answer a visitor one way (decision 002, issue 29 item 16): no route
// guard sends them away (specification section 6: mypage is not guarded), the page itself asks them to
// sign in, with a link back to the same address; no member's data is read. Posts are refused.
import { describe, it, expect } from 'vitest';
import { get, postForm } from '#tests/http';
import { readFileSync } from 'node:fs';

/** Every route under /mypage in app/routes.ts, read from the file so that a new one cannot be missed. */
function mypageChildren(): string[] {
  const routes = readFileSync(new URL('../../app/routes.ts', import.meta.url), 'utf8');
  const start = routes.indexOf("...prefix('mypage'");
  const block = routes.slice(start, routes.indexOf("...prefix('myinbox'", start));
  return [...block.matchAll(/route\('([^']+)'/g)].map(
    (m) => `/mypage/${m[1]!.replace(':requestId', '00000000-0000-4000-8000-000000000000')}`,
  );
}

const children = mypageChildren();

describe('/mypage and its pages as a visitor', () => {
  it('covers all nineteen pages of the area', () => {
    expect(children).toHaveLength(19);
    expect(children).toContain('/mypage/backfromlinecampaign');
    // A restricted member's statement (decision 084) and the closure's 払戻し (decision 085).
    expect(children).toEqual(expect.arrayContaining(['/mypage/standing', '/mypage/refund']));
  });

  const memberPages = children.filter((path) => path !== '/mypage/invitation');
  it.each(memberPages)('%s asks the visitor to sign in (200, no redirect), back to this address', async (path) => {
    const page = await get(`${path}?from=walk`);
    expect(page.status).toBe(200);
    expect(page.location).toBeNull();
    expect(page.body).toContain('data-testid="members-only"');
    expect(page.body).toContain('ログインが必要です');
    expect(page.body).toContain(`href="/auth/sign_in?redirect=${encodeURIComponent(`${path}?from=walk`)}"`);
    expect(page.body).toContain('href="/auth/sign_up"');
  });

  it('/mypage itself and the invitation page (its rules are for anyone) ask the same way, with their own words', async () => {
    const mypage = await get('/mypage');
    expect([mypage.status, mypage.location]).toEqual([200, null]);
    expect(mypage.body).toContain('href="/auth/sign_in?redirect=%2Fmypage"');
    const invitation = await get('/mypage/invitation');
    expect([invitation.status, invitation.location]).toEqual([200, null]);
    expect(invitation.body).toContain('href="/auth/sign_in?redirect=%2Fmypage%2Finvitation"');
  });

  it("refuses a visitor's post on a member's page: to sign in, nothing done", async () => {
    for (const path of ['/mypage/addresses', '/mypage/settings/profile', '/mypage/shipping/new']) {
      const post = await postForm(path, { intent: 'x' });
      expect(post.status, path).toBe(302);
      expect(post.location, path).toMatch(/^\/auth\/sign_in\?redirect=/);
    }
  });
});
