// /mypage/backfromline and /mypage/backfromlinecampaign on a sandbox shop: without LINE_CHANNEL_ID the
// pages use the LINE Login stand-in, as LINE sign-in does (issue 29 item 17); the whole link over HTTP.
import { describe, it, expect } from 'vitest';
import { get, postForm, cookieFrom, shopUrl, signUpMember } from '#tests/http';

/** Plays the member on the LINE stand-in's consent page: 新しいLINEユーザーとして許可する. */
async function allowOnLineStandin(authorizeUrl: string): Promise<URL> {
  const consent = await fetch(authorizeUrl, { redirect: 'manual' });
  const requestId = /name="request_id" value="([^"]+)"/.exec(await consent.text())?.[1];
  expect(requestId).toBeTruthy();
  const allowed = await fetch(new URL('/oauth2/v2.1/authorize', authorizeUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request_id: requestId!, decision: 'allow-new' }),
  });
  return new URL(allowed.headers.get('location')!);
}

describe.each(['/mypage/backfromline', '/mypage/backfromlinecampaign'])('%s on a sandbox shop', (path) => {
  it('offers LINE linking through the stand-in and comes back linked', async () => {
    const member = await signUpMember(`line-return-${path.length}`);
    const page = await get(path, { cookie: member.cookie });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('LINE連携は現在ご利用いただけません');
    expect(page.body).toContain('LINEと連携する');

    const start = await postForm(path, {}, { cookie: member.cookie });
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(authorize.pathname).toBe('/oauth2/v2.1/authorize');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${shopUrl()}/api/auth/callback/line`);

    const callback = await allowOnLineStandin(authorize.href);
    expect(callback.pathname).toBe('/api/auth/callback/line');
    const back = await get(callback.pathname + callback.search, {
      cookie: `${member.cookie}; ${cookieFrom(start.headers)}`,
    });
    expect(back.status).toBe(302);
    expect(back.location).toContain(`${path}?done=1`);
    const done = await get(`${path}?done=1`, { cookie: member.cookie });
    expect(done.status).toBe(200);
    expect(done.body).toContain('LINEアカウントを連携しました');
  });
});
