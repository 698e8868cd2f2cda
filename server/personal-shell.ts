// Members' catalogue pages from one shared shell per page, the member's own parts filled in per response
// (docs/decisions/077). The shell is rendered with no member at all (the root answers placeholders and the
// header renders markers), stored beside the visitors' copy in the page cache, and each member's answer is
// the shell with this member's texts and data in its holes: three reads (the session, which the server has
// already made, the balance and the bell; on a pack page also the member's own limits), no render.
import { isStaffRole } from '#modules/identity';
import type { SessionMember } from './context';
import { getBalance } from '#modules/wallet';
import { unreadMailCount } from '#modules/mailbox';
import { ripeCropCount } from '#modules/farm';
import { fillPersonalHoles, isPersonalShell, type PersonalView } from '#modules/kernel/personal-holes';
import { cacheKeyOf, type CachedPage, type PageCache } from './page-cache';
import { shopMailboxOptions } from './mailbox';
import { farmNow } from './farm';
import { selfLimitStateOf } from './self-limits';
import type { ShopServices } from './services';

/** The pack page's path: its shell serves only the plain address (?confirm=N opens a sheet with a key). */
const PACK_PAGE = /^\/gacha\/[A-Za-z0-9_-]{1,80}\/[A-Za-z0-9_-]{1,80}\/?$/;

/**
 * The page cache's key of a member's request that the members' shell may answer, or null when the page is
 * rendered for the member: staff (their header differs, and previews), a one-time notice, other pages.
 * @example memberShellKeyOf(request, member) === 'member:/gacha/pokemon'
 */
export function memberShellKeyOf(request: Request, member: SessionMember): string | null {
  if (isStaffRole(member.role)) return null;
  // The visitors' rules for everything but the session cookie: GET, no Authorization, no notice cookie,
  // a cacheable path, a short query.
  const headers = new Headers(request.headers);
  const cookie = headers.get('cookie');
  if (cookie) headers.set('cookie', cookie.replace(/(?:^|;\s*)[^=;]*session_token=[^;]*/g, ''));
  const key = cacheKeyOf(new Request(request.url, { method: request.method, headers }));
  if (!key) return null;
  if (PACK_PAGE.test(key.split('?')[0]!) && key.includes('?')) return null;
  return `member:${key}`;
}

/**
 * The member's own values for the shell's holes, or null when this member's page is not the shell's shape
 * and is rendered for them: on the home page, ripe crops to harvest (a nudge only members with some see);
 * on a pack page, limits of the member's own (decision 035: the page says them).
 */
export async function personalViewOf(
  services: ShopServices,
  member: SessionMember,
  path: string,
): Promise<PersonalView | null> {
  const { db } = services;
  const [balance, unreadMails, ripeCrops, selfLimits] = await Promise.all([
    getBalance(db, member.id),
    unreadMailCount(db, member.id, { ...shopMailboxOptions(), joinedAt: member.joinedAt }),
    path === '/' ? ripeCropCount(db, member.id, farmNow()) : Promise.resolve(0),
    PACK_PAGE.test(path) ? selfLimitStateOf(db, member.id).then((state) => state.summary) : Promise.resolve(null),
  ]);
  // Any limit of the member's own: the page and its draw sheet say it, so the page is rendered for them.
  if (ripeCrops || selfLimits?.purchase || selfLimits?.draw || selfLimits?.excludedLastDay) return null;
  return {
    member: { id: member.id, name: member.name, role: member.role },
    wallet: { paid: balance.paid, free: balance.free, total: balance.total },
    unreadMails,
  };
}

const checked = new WeakMap<CachedPage, string | null>();

/**
 * The stored shell's text when it is a sound shell (its holes known, its data element once), else null: a
 * page that is not (a text imitating a marker) is rendered for each member instead.
 */
export function shellText(page: CachedPage): string | null {
  let text = checked.get(page);
  if (text === undefined) {
    const html = page.body.toString('utf8');
    text = isPersonalShell(html) ? html : null;
    checked.set(page, text);
  }
  return text;
}

/** A member's answer from the shell: the page's headers, this member's holes, kept by nobody. */
function filledAnswer(page: CachedPage, shell: string, view: PersonalView, state: 'hit' | 'miss'): Response {
  const headers = new Headers(page.headers);
  headers.set('Cache-Control', 'private, no-store');
  headers.set('Vary', 'Cookie, Accept-Encoding');
  headers.set('X-Page-Cache', `shell-${state}`);
  return new Response(fillPersonalHoles(shell, view), { status: page.status, headers });
}

/**
 * A member's page from the members' shell (stored once per page and TTL, rendered by `renderShell` with no
 * member) and the member's own reads, with the shell's script hashes for the CSP; undefined when the page is
 * rendered for the member instead (the shell could not be stored or is not sound, or this member's page has
 * another shape today).
 */
export async function fromMemberShell(
  services: ShopServices,
  pages: PageCache,
  key: string,
  member: SessionMember,
  path: string,
  renderShell: () => Promise<Response>,
): Promise<{ response: Response; scriptHashes: string[] } | undefined> {
  const loadShell = async (): Promise<{ page: CachedPage; state: 'hit' | 'miss' } | null> => {
    const stored = pages.get(key);
    if (stored) return { page: stored, state: 'hit' };
    const loaded = await pages.load(key, renderShell);
    if ('page' in loaded) return { page: loaded.page, state: 'miss' };
    await loaded.response.body?.cancel().catch(() => undefined);
    return null;
  };
  const [shell, view] = await Promise.all([loadShell(), personalViewOf(services, member, path)]);
  const text = shell ? shellText(shell.page) : null;
  if (!shell || !text || !view) return undefined;
  return { response: filledAnswer(shell.page, text, view, shell.state), scriptHashes: shell.page.scriptHashes };
}
