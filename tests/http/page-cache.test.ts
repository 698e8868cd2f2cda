// The visitors' page cache (server/page-cache.ts, decision 048) on a shop of its own with a long
// PAGE_CACHE_SECONDS: a visitor's public page is rendered once and served to the next visitor with a CSP
// of hashes (no nonce shared), members (who get the members' shell) and one-time notices are never served it, an operator's change
// and a pack selling out drop it, and a cached page still runs its scripts in Chromium.
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startOwnShop, OWN_SHOP_AUTH_SECRET as AUTH_SECRET, type OwnShop } from '#tests/own-shop';
import { createSessionMembers } from '#tests/members';
import { grantStaff } from '#tests/staff';
import { LIVE_CHANNEL } from '#server/live';
import { launchChromium, openContext, waitForHydration } from '../../e2e/support/browser';

const PACK = '/gacha/pokemon/stellar-pokemon-001';

let own: OwnShop;
let shop: OwnShop['shop'];
let base: string;

beforeAll(async () => {
  // Long enough that nothing in this file expires by itself: every miss below is an invalidation.
  own = await startOwnShop('page_cache', { PAGE_CACHE_SECONDS: '60' });
  ({ shop, base } = own);
});
afterAll(async () => {
  await own?.stop();
});

async function visit(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { redirect: 'manual', headers });
  return { response, body: await response.text() };
}

/** The sha256 sources a browser computes for the page's inline scripts. */
function hashesOfInlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${crypto.createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`,
  );
}

async function sessionCookie(): Promise<{ cookie: string; id: string }> {
  const [member] = await createSessionMembers(shop.services.db, { count: 1, secret: AUTH_SECRET, paid: 500 });
  const name = (await shop.services.auth.$context).authCookies.sessionToken.name;
  return { cookie: `${name}=${member!.bearer}`, id: member!.id };
}

describe('visitors’ page cache', () => {
  it('renders a public page once and serves the next visitor a copy whose scripts run by their hashes', async () => {
    shop.services.pages!.clear();
    const first = await visit(PACK, { 'accept-encoding': 'identity' });
    const second = await visit(PACK, { 'accept-encoding': 'identity' });
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('x-page-cache')).toBe('miss');
    expect(second.response.headers.get('x-page-cache')).toBe('hit');
    expect(second.body).toBe(first.body);
    for (const { response, body } of [first, second]) {
      const policy = response.headers.get('content-security-policy')!;
      const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src'))!;
      expect(scriptSrc).not.toContain("'nonce-");
      const hashes = hashesOfInlineScripts(body);
      expect(hashes.length).toBeGreaterThan(0);
      for (const hash of hashes) expect(scriptSrc).toContain(hash);
      expect(response.headers.get('cache-control')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    // Each response is still its own: its own request id.
    expect(first.response.headers.get('x-request-id')).not.toBe(second.response.headers.get('x-request-id'));
  });

  it('sends the stored copy compressed as the visitor accepts it, byte for byte the same page', async () => {
    const plain = await visit('/', { 'accept-encoding': 'identity' });
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await fetch(base + '/', { headers: { 'accept-encoding': encoding } });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
      // fetch decodes the body: the same page as the identity copy.
      expect(await response.text()).toBe(plain.body);
    }
  });

  it("never serves a member or a visitor with a one-time notice the visitors' copy", async () => {
    await visit('/');
    const { cookie } = await sessionCookie();
    // A member's catalogue page comes from the members' shell (decision 077, tests/http/member-shell.test.ts).
    const member = await visit('/', { cookie });
    expect(member.response.status).toBe(200);
    expect(member.response.headers.get('x-page-cache')).toMatch(/^shell-/);
    expect(member.response.headers.get('cache-control')).toBe('private, no-store');
    // The member's header shows their coins (500), a visitor's page shows none.
    expect(member.body).toContain('500');
    // A member's draw sheet (?confirm=1, with the member's draw key) is rendered for them, with its own nonce.
    const pack = await visit(`${PACK}?confirm=1`, { cookie });
    expect(pack.response.headers.get('x-page-cache')).toBeNull();
    expect(pack.response.headers.get('cache-control')).toBe('private, no-store');
    expect(pack.response.headers.get('content-security-policy')).toContain("'nonce-");

    const noticed = await visit('/', { cookie: 'oripa_notice=signed-out' });
    expect(noticed.response.headers.get('x-page-cache')).toBeNull();
    // Other cookies (analytics, an invitation) do not matter: the shared copy is rendered without them.
    const other = await visit('/', { cookie: 'oripa_invite=abc; _ga=1' });
    expect(other.response.headers.get('x-page-cache')).toBe('hit');
    // A private path is never stored.
    const ranking = await visit('/ranking/daily');
    expect(ranking.response.headers.get('x-page-cache')).toBeNull();
  });

  it('never puts the staff header link, or any member’s own parts, into a visitor’s copy', async () => {
    shop.services.pages!.clear();
    const { cookie, id } = await sessionCookie();
    await grantStaff(shop.services.db, `${id}@storm.example.test`, ['shipping:read']);
    const staff = await visit('/', { cookie });
    expect(staff.response.headers.get('x-page-cache')).toBeNull();
    expect(staff.body).toContain('data-testid="header-admin-link"');
    // The visitors after the staff member: a fresh render, then the stored copy, neither with the link or the staff's coins.
    const first = await visit('/');
    const second = await visit('/');
    expect(first.response.headers.get('x-page-cache')).toBe('miss');
    expect(second.response.headers.get('x-page-cache')).toBe('hit');
    for (const { body } of [first, second]) {
      expect(body).not.toContain('header-admin-link');
      expect(body).not.toContain('header-wallet');
      expect(body).not.toContain(id);
    }
    // A stored copy is not served to the staff member either.
    const again = await visit('/', { cookie });
    expect(again.response.headers.get('x-page-cache')).toBeNull();
    expect(again.body).toContain('data-testid="header-admin-link"');
  });

  it('drops the copies when an operator changes something in the admin area', async () => {
    await visit('/gacha/pokemon');
    expect((await visit('/gacha/pokemon')).response.headers.get('x-page-cache')).toBe('hit');
    // A change made behind the shop's back waits for PAGE_CACHE_SECONDS…
    await shop.services.db.execute(sql`update genres set name = 'ポケモンカード改' where id = 'pokemon'`);
    const stale = await visit('/gacha/pokemon');
    expect(stale.response.headers.get('x-page-cache')).toBe('hit');
    expect(stale.body).not.toContain('ポケモンカード改');
    // …an operator's change in the admin area is seen by the next visitor.
    const { cookie, id } = await sessionCookie();
    await grantStaff(shop.services.db, `${id}@storm.example.test`, ['packs:write']);
    const made = await fetch(base + '/admin/genres', {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'create',
        id: 'cachetest',
        name: 'キャッシュ',
        sortOrder: '90',
        aliases: '',
        iconPath: '',
      }),
      redirect: 'manual',
    });
    expect(made.status).toBe(200);
    const fresh = await visit('/gacha/pokemon');
    expect(fresh.response.headers.get('x-page-cache')).toBe('miss');
    expect(fresh.body).toContain('ポケモンカード改');
  });

  it('drops the copies when a pack sells out, so no visitor is offered its draws', async () => {
    await visit(PACK);
    expect((await visit(PACK)).response.headers.get('x-page-cache')).toBe('hit');
    const pack = { id: 'stellar-pokemon-001' };
    // What the live updates announce after the last lot of a pack is claimed (server/live.ts).
    await shop.services.db.execute(
      sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify({ gachaId: pack!.id, total: 10, remaining: 0, soldOut: true, tiers: [] })})`,
    );
    await expect.poll(async () => (await visit(PACK)).response.headers.get('x-page-cache')).toBe('miss');
  });

  it('hydrates in Chromium from a cached copy without a CSP refusal', async () => {
    const browser = await launchChromium();
    try {
      await visit('/');
      const { page, problems, context } = await openContext(browser, 'phone', base);
      const refusals: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
      });
      const answer = await page.goto('/');
      expect(answer?.headers()['x-page-cache']).toBe('hit');
      await waitForHydration(page);
      expect(refusals).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
