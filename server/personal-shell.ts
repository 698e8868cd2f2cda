// Members' catalogue pages from one shared shell per page, the member's own parts filled in per response
// (docs/decisions/077). The shell is rendered with no member at all (the root answers placeholders and the
// header renders markers), stored beside the visitors' copy in the page cache, and each member's answer is
// the shell with this member's texts and data in its holes: three reads (the session, which the server has
// already made, the balance and the bell; on a pack page also the member's own limits), no render.
import zlib from 'node:zlib';
import { isStaffRole } from '#modules/identity';
import { getBalance } from '#modules/wallet';
import { unreadMailCount } from '#modules/mailbox';
import { ripeCropCount } from '#modules/farm';
import { personalTexts, type PersonalView } from '#modules/kernel/personal-holes';
import { isPersonalShell, personalHoleText, splitPersonalShell, type ShellHole } from './personal-fill';
import { chooseEncoding } from './compression';
import { cacheKeyOfShape, sharedRequest, type CachedPage, type PageCache } from './page-cache';
import { shopMailboxOptions } from './mailbox';
import { farmNow } from './farm';
import { selfLimitStateOf } from './self-limits';
import type { ShopServices } from './services';
import type { SessionMember } from './context';

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
  const cookie = request.headers.get('cookie');
  const withoutSession = cookie === null ? null : cookie.replace(/(?:^|;\s*)[^=;]*session_token=[^;]*/g, '');
  const key = cacheKeyOfShape(request.method, request.url, withoutSession, request.headers.has('authorization'));
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

/** A stored shell cut at its holes, its texts as bytes and each also deflated once (gzip answers). */
interface ShellParts {
  segments: Buffer[];
  holes: ShellHole[];
  /** Each segment as raw deflate on its own, byte-aligned (the last one final): spliced per answer. */
  deflated: Buffer[];
}

const partsOf = new WeakMap<CachedPage, ShellParts | null>();

/**
 * The stored shell cut at its holes when it is a sound shell (its holes known, its data element once),
 * else null: a page that is not (a text imitating a marker, a pack with a per-member limit) is rendered for
 * each member instead. Made once per stored shell.
 */
export function shellPartsOf(page: CachedPage): ShellParts | null {
  let parts = partsOf.get(page);
  if (parts === undefined) {
    const html = page.body.toString('utf8');
    if (isPersonalShell(html)) {
      const { segments, holes } = splitPersonalShell(html);
      const bytes = segments.map((segment) => Buffer.from(segment, 'utf8'));
      parts = {
        segments: bytes,
        holes,
        deflated: bytes.map((segment, i) =>
          zlib.deflateRawSync(segment, {
            level: 9,
            // A sync flush ends each piece on a byte boundary with no final block, so pieces and the
            // answer's stored blocks follow each other as one deflate stream; the last piece finishes it.
            finishFlush: i === bytes.length - 1 ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
          }),
        ),
      };
    } else parts = null;
    partsOf.set(page, parts);
  }
  return parts;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** Bytes as deflate stored blocks (not final), to sit between pieces deflated on their own. */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at < bytes.length || at === 0; at += 0xffff) {
    const chunk = bytes.subarray(at, at + 0xffff);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
    if (bytes.length === 0) break;
  }
  return blocks;
}

/**
 * The member's page as bytes: the shell's pieces with this member's texts between them, plain or as gzip
 * made of the pieces deflated once and the texts as stored blocks (RFC 1951 §3.2.4; one gzip member with
 * the CRC-32 of the whole page), so no answer compresses the page again.
 */
export function filledBody(parts: ShellParts, view: PersonalView, gzip: boolean): Buffer {
  const texts = personalTexts(view.wallet, view.unreadMails);
  const filled = parts.holes.map((hole) => Buffer.from(personalHoleText(hole, view, texts), 'utf8'));
  if (!gzip)
    return Buffer.concat(
      parts.segments.flatMap((segment, i) => (i < filled.length ? [segment, filled[i]!] : [segment])),
    );
  let crc = 0;
  let size = 0;
  const pieces: Buffer[] = [GZIP_HEADER];
  parts.segments.forEach((segment, i) => {
    crc = zlib.crc32(segment, crc);
    size += segment.length;
    pieces.push(parts.deflated[i]!);
    const text = filled[i];
    if (text) {
      crc = zlib.crc32(text, crc);
      size += text.length;
      if (text.length) pieces.push(...storedBlocks(text));
    }
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}

/** A member's answer from the shell: the page's headers, this member's holes, kept by nobody. */
function filledAnswer(
  page: CachedPage,
  parts: ShellParts,
  view: PersonalView,
  state: 'hit' | 'miss',
  acceptEncoding: string | undefined,
): Response {
  const headers = new Headers(page.headers);
  headers.set('Cache-Control', 'private, no-store');
  headers.set('Vary', 'Cookie, Accept-Encoding');
  headers.set('X-Page-Cache', `shell-${state}`);
  // gzip from the pieces deflated once (a browser that takes only brotli gets it from the middleware).
  const gzip = chooseEncoding(acceptEncoding, ['gzip']) === 'gzip';
  if (gzip) headers.set('Content-Encoding', 'gzip');
  return new Response(new Uint8Array(filledBody(parts, view, gzip)), { status: page.status, headers });
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
  request: Request,
  renderShell: (shared: Request) => Promise<Response>,
): Promise<{ response: Response; scriptHashes: string[] } | undefined> {
  const path = new URL(request.url).pathname;
  // A stored shell this page cannot fill (a pack with a per-member limit): rendered for the member, no reads.
  const known = pages.get(key);
  if (known && !shellPartsOf(known)) return undefined;
  const loadShell = async (): Promise<{ page: CachedPage; state: 'hit' | 'miss' } | null> => {
    if (known) return { page: known, state: 'hit' };
    const loaded = await pages.load(key, () => renderShell(sharedRequest(request)));
    if ('page' in loaded) return { page: loaded.page, state: 'miss' };
    await loaded.response.body?.cancel().catch(() => undefined);
    return null;
  };
  const [shell, view] = await Promise.all([loadShell(), personalViewOf(services, member, path)]);
  const parts = shell ? shellPartsOf(shell.page) : null;
  if (!shell || !parts || !view) return undefined;
  return {
    response: filledAnswer(shell.page, parts, view, shell.state, request.headers.get('Accept-Encoding') ?? undefined),
    scriptHashes: shell.page.scriptHashes,
  };
}
