// The Prismic source against the local stand-in of Prismic's document API (devtools/standins/prismic):
// the specification's client rules (paging, repository cache, 429, expired refs, error codes, the queue)
// and the outage fallback. Time is measured with lower bounds only: a busy machine is slower, never faster.
// The source's own waits (after a 429, between a job's attempts) run on a fake clock where a test asks for
// one (onFakeClock): the wait moves Date and performance forward at once, so the stand-in's timestamps show
// the same gaps real waiting would, without the suite sleeping through them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '#server/logger';
import {
  prismicDocument,
  startPrismicStandin,
  type PrismicStandin,
  type StandinDocument,
} from '#devtools/standins/prismic';
import { isContentError } from '../errors';
import { pause } from './http';
import { createPrismicSource, type PrismicSource } from './source';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prismic-source-'));
const opened: { sources: PrismicSource[]; standins: PrismicStandin[] } = { sources: [], standins: [] };
let fileNumber = 0;

afterEach(async () => {
  vi.useRealTimers();
  for (const source of opened.sources.splice(0)) source.close();
  for (const standin of opened.standins.splice(0)) await standin.close();
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const text = (value: string) => [{ type: 'paragraph', text: value, spans: [] }];
const page = (uid: string, title: string, type: 'page' | 'special' = 'page') =>
  prismicDocument(type, uid, { title: [{ type: 'heading1', text: title, spans: [] }], body: text(`${title}の本文`) });

async function standinWith(documents: StandinDocument[], options: { accessToken?: string } = {}) {
  const standin = await startPrismicStandin({ documents, ...options });
  opened.standins.push(standin);
  return standin;
}

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const record = (level: string) => (first: unknown, second?: string) =>
    lines.push({ level, message: second ?? String(first) });
  const logger = { warn: record('warn'), info: record('info'), error: record('error'), debug: () => {} };
  return { logger: logger as unknown as Logger, lines };
}

/** Date and performance.now() become a fake clock that the source's waits move forward (setTimeout stays real). */
function onFakeClock(now = Date.now()) {
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  vi.setSystemTime(now);
}

/** The source's wait: on the fake clock it moves time forward by `ms` at once; otherwise it really waits. */
const pauseOnTheTestClock: typeof pause = (ms, signal) => {
  if (!vi.isFakeTimers()) return pause(ms, signal);
  if (signal.aborted) return Promise.reject(signal.reason);
  vi.advanceTimersByTime(ms);
  return Promise.resolve();
};

function sourceFor(
  standin: PrismicStandin,
  options: { cacheFile?: string; accessToken?: string; logger?: Logger } = {},
): PrismicSource {
  const source = createPrismicSource({
    repository: standin.endpoint,
    accessToken: options.accessToken,
    cacheFile: options.cacheFile ?? path.join(workDir, `copy-${fileNumber++}.json`),
    logger: options.logger ?? recordingLogger().logger,
    pause: pauseOnTheTestClock,
  });
  opened.sources.push(source);
  return source;
}

const searches = (standin: PrismicStandin) => standin.requests.filter((r) => r.kind === 'search');
const repositoryCalls = (standin: PrismicStandin) => standin.requests.filter((r) => r.kind === 'repository');

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isContentError(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('the Prismic source: reading', () => {
  it('lists every document 100 a page with at least 500 ms between pages, and serves the copy', async () => {
    const documents = Array.from({ length: 230 }, (_, i) => page(`page-${String(i).padStart(3, '0')}`, `ページ${i}`));
    documents.push(page('page-000', '特設の方が勝つ', 'special'));
    const standin = await standinWith(documents);
    const source = sourceFor(standin);
    await source.refresh();

    const pages = searches(standin);
    expect(pages.map((r) => r.url.searchParams.get('page') ?? '1')).toEqual(['1', '2', '3']);
    for (const request of pages) {
      expect(request.url.searchParams.get('pageSize')).toBe('100');
      expect(request.url.searchParams.get('ref')).toBe(standin.masterRef);
      expect(request.url.searchParams.get('lang')).toBe('*');
      expect(JSON.parse(request.url.searchParams.get('routes')!)).toContainEqual({
        type: 'notice',
        path: '/notices/:uid',
      });
      expect(request.url.searchParams.getAll('q')).toEqual([
        '[[any(document.type, ["page", "special", "banner", "notice"])]]',
      ]);
    }
    expect(pages[1]!.at - pages[0]!.at).toBeGreaterThanOrEqual(495);
    expect(pages[2]!.at - pages[1]!.at).toBeGreaterThanOrEqual(495);

    expect((await source.listPages()).length).toBe(231);
    expect((await source.getPage('page-000'))?.data.title).toBe('特設の方が勝つ');
    expect((await source.getPage('page-000', ['page']))?.data.title).toBe('ページ0');
    const one = await source.getPage('page-042');
    expect(one).toMatchObject({ type: 'page', uid: 'page-042', url: '/page-042', lang: 'ja-jp' });
    expect(one?.data.body).toEqual(text('ページ42の本文'));
    expect(await source.getPage('missing')).toBeNull();
    expect(source.health()).toMatchObject({ source: 'prismic', stale: false, lastError: null });
  });

  it('fetches the repository at most once per 5 s, and lists again only when the master ref moved', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const start = Date.parse('2026-11-24T10:00:00Z');
    vi.setSystemTime(start);
    const standin = await standinWith([page('terms', '利用規約')]);
    const source = sourceFor(standin);
    await source.refresh();
    // Moving the clock past the queue's 1500 ms keeps the test short; the repository cache sees 1.6 s, 3.2 s.
    vi.setSystemTime(start + 1600);
    await source.refresh();
    vi.setSystemTime(start + 3200);
    await source.refresh();
    expect(repositoryCalls(standin)).toHaveLength(1);
    expect(searches(standin)).toHaveLength(1);

    standin.publish([page('terms', '利用規約（改定）')]);
    vi.setSystemTime(start + 5100);
    await source.refresh();
    expect(repositoryCalls(standin)).toHaveLength(2);
    expect(searches(standin)).toHaveLength(2);
    expect((await source.getPage('terms'))?.data.title).toBe('利用規約（改定）');
  });

  it('maps banners, notices and slices, with the window read at the time asked', async () => {
    const image = (url: string) => ({ url, alt: '代替', dimensions: { width: 1200, height: 500 } });
    const standin = await standinWith([
      prismicDocument('banner', 'winter', {
        title: '冬のオリパ',
        image: image('https://images.prismic.io/shop/winter.png'),
        link: { link_type: 'Document', id: 'X1', type: 'page', uid: 'winter-sale' },
        order: 2,
        period: '12月1日〜12月25日',
        alt: '冬のオリパ開催中',
        active: true,
        starts_at: '2026-12-01T00:00:00+0000',
        ends_at: '2026-12-25T00:00:00+0000',
      }),
      prismicDocument('banner', 'always', {
        title: '常設',
        image: image('/media/a.webp'),
        link: { link_type: 'Web', url: '/gacha' },
        order: 1,
      }),
      prismicDocument('banner', 'off', { title: '停止中', image: image('/media/b.webp'), order: 0, active: false }),
      prismicDocument('notice', 'old', {
        title: '古いお知らせ',
        body: text('a'),
        starts_at: '2026-11-01T00:00:00+0000',
      }),
      prismicDocument('notice', 'new', {
        title: '新しいお知らせ',
        body: text('b'),
        starts_at: '2026-11-20T00:00:00+0000',
      }),
      prismicDocument('notice', 'urgent', {
        title: '重要',
        body: text('c'),
        important: true,
        starts_at: '2026-11-02T00:00:00+0000',
      }),
      prismicDocument('notice', 'later', { title: '未来', body: text('d'), starts_at: '2027-01-01T00:00:00+0000' }),
      prismicDocument('page', 'guide', {
        title: '遊び方',
        description: [{ type: 'paragraph', text: '説明', spans: [] }],
        hero_image: {},
        body: [],
        slices: [
          { slice_type: 'text', primary: { text: text('本文') }, items: [] },
          { slice_type: 'carousel', primary: {}, items: [] },
          { slice_type: 'button', primary: { label: '引く', link: { link_type: 'Web', url: '/gacha' } }, items: [] },
          { slice_type: 'image', primary: { image: {} }, items: [] },
        ],
      }),
      prismicDocument('settings', 'ignored', {}),
    ]);
    const source = sourceFor(standin);
    await source.refresh();

    const inDecember = await source.listBanners(new Date('2026-12-10T00:00:00Z'));
    expect(inDecember.map((b) => b.uid)).toEqual(['always', 'winter']);
    expect(inDecember[1]).toEqual({
      uid: 'winter',
      title: '冬のオリパ',
      image: 'https://images.prismic.io/shop/winter.png',
      link: '/winter-sale',
      order: 2,
      period: '12月1日〜12月25日',
      alt: '冬のオリパ開催中',
    });
    expect((await source.listBanners(new Date('2026-11-24T00:00:00Z'))).map((b) => b.uid)).toEqual(['always']);

    const notices = await source.listNotices(new Date('2026-11-24T00:00:00Z'));
    expect(notices.map((n) => n.uid)).toEqual(['urgent', 'new', 'old']);
    expect(notices[1]).toMatchObject({ url: '/notices/new', data: { title: '新しいお知らせ', important: false } });
    expect((await source.getNotice('later'))?.data.title).toBe('未来');

    const guide = await source.getPage('guide');
    expect(guide?.data.description).toBe('説明');
    expect(guide?.data.heroImage).toBeUndefined();
    expect(guide?.data.slices?.map((s) => s.slice_type)).toEqual(['text', 'button']);
    expect((await source.listPages()).map((p) => p.uid)).toEqual(['guide']);
  });

  it('answers a preview ref by document id without putting it into the copy', async () => {
    onFakeClock();
    const published = page('campaign', '公開版');
    const standin = await standinWith([published]);
    const source = sourceFor(standin);
    await source.refresh();
    const ref = standin.addPreview([{ ...published, data: { ...published.data, title: '下書き' } }]);
    const preview = await source.getPreview({ kind: 'prismic', ref, documentId: published.id });
    expect(preview).toMatchObject({ uid: 'campaign', data: { title: '下書き' } });
    expect(searches(standin).at(-1)!.url.searchParams.get('ref')).toBe(ref);
    expect((await source.getPage('campaign'))?.data.title).toBe('公開版');
    expect(await source.getPreview({ kind: 'prismic', ref, documentId: 'no-such-id' })).toBeNull();
    expect(await source.getPreview({ kind: 'builtin', documentId: published.id, version: 1 })).toBeNull();
    // An unknown or expired preview ref: Prismic names the master ref, but a preview never falls back
    // to the published version (the client would retry with it).
    const unknown = `${new URL(standin.endpoint).origin}/previews/never-made`;
    expect(await source.getPreview({ kind: 'prismic', ref: unknown, documentId: published.id })).toBeNull();
    standin.expire(ref);
    expect(await source.getPreview({ kind: 'prismic', ref, documentId: published.id })).toBeNull();
    expect(
      searches(standin).some(
        (r) => r.url.searchParams.get('ref') === standin.masterRef && r.url.search.includes(published.id),
      ),
    ).toBe(false);
  });
});

describe('the Prismic source: the specification client rules', () => {
  it('waits the Retry-After delay on 429, and 1000 ms when there is none', async () => {
    onFakeClock();
    for (const { header, atLeast } of [
      { header: '2', atLeast: 1990 },
      { header: undefined, atLeast: 990 },
    ]) {
      const standin = await standinWith([page('terms', '利用規約')]);
      let limited = false;
      standin.answer = (request) => {
        if (request.kind !== 'search' || limited) return null;
        limited = true;
        return {
          status: 429,
          body: { message: 'Too many requests' },
          headers: header ? { 'retry-after': header } : ({} as Record<string, string>),
        };
      };
      const source = sourceFor(standin);
      await source.refresh();
      const [first, second] = searches(standin);
      expect(second).toBeDefined();
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(atLeast);
      expect((await source.getPage('terms'))?.data.title).toBe('利用規約');
    }
  });

  it('stops after 3 rate-limited attempts with rate-limited', async () => {
    onFakeClock();
    const standin = await standinWith([]);
    standin.answer = (request) =>
      request.kind === 'search' ? { status: 429, body: {}, headers: { 'retry-after': '0' } } : null;
    const source = sourceFor(standin);
    expect(await codeOf(source.refresh())).toBe('rate-limited');
    expect(searches(standin)).toHaveLength(3);
  });

  it('retries an expired (410) or unknown (404) ref with the master ref Prismic names', async () => {
    onFakeClock();
    for (const retire of ['expire', 'forget'] as const) {
      const standin = await standinWith([page('terms', '旧版')]);
      const oldRef = standin.masterRef;
      // The ref goes out of use between the repository call and the search, as a publication can make it.
      standin.answer = (request) => {
        if (request.kind === 'search' && standin.masterRef === oldRef) {
          standin.publish([page('terms', '新版')]);
          standin[retire](oldRef);
        }
        return null;
      };
      const source = sourceFor(standin);
      await source.refresh();
      expect(searches(standin).map((r) => r.url.searchParams.get('ref'))).toEqual([oldRef, standin.masterRef]);
      expect((await source.getPage('terms'))?.data.title).toBe('新版');
    }
  });

  it('reads the master ref again from the repository when Prismic names none, at most 3 times', async () => {
    onFakeClock();
    const standin = await standinWith([page('terms', '旧版')]);
    standin.nameMasterRef = false;
    const oldRef = standin.masterRef;
    standin.answer = (request) => {
      if (request.kind === 'search' && standin.masterRef === oldRef) {
        standin.publish([page('terms', '新版')]);
        standin.expire(oldRef);
      }
      return null;
    };
    const source = sourceFor(standin);
    await source.refresh();
    expect(repositoryCalls(standin)).toHaveLength(2);
    expect((await source.getPage('terms'))?.data.title).toBe('新版');

    // Every ref expired: 3 attempts, then expired-ref (named master or not).
    for (const named of [true, false]) {
      const broken = await standinWith([]);
      broken.nameMasterRef = named;
      broken.answer = (request) =>
        request.kind === 'search'
          ? {
              status: 410,
              body: { type: 'api_validation_error', message: named ? `Master ref is: ${broken.masterRef}` : 'expired' },
            }
          : null;
      const failing = sourceFor(broken);
      expect(await codeOf(failing.refresh())).toBe('expired-ref');
      expect(searches(broken)).toHaveLength(3);
    }
  });

  it('maps 400, 401, 403, 404 and 410 to the shop codes', async () => {
    onFakeClock();
    const cases = [
      { status: 400, body: { type: 'parsing-error', message: 'bad q' }, code: 'invalid-query' },
      { status: 401, body: { type: 'api_security_error', message: 'Invalid access token' }, code: 'forbidden' },
      { status: 403, body: { error: 'forbidden' }, code: 'forbidden' },
      { status: 404, body: { type: 'not_found', message: 'nothing here' }, code: 'not-found' },
      { status: 410, body: { type: 'api_validation_error', message: 'Master ref is: gone' }, code: 'expired-ref' },
    ];
    for (const { status, body, code } of cases) {
      const standin = await standinWith([]);
      standin.answer = (request) => (request.kind === 'search' ? { status, body } : null);
      const source = sourceFor(standin);
      expect(await codeOf(source.refresh()), `HTTP ${status}`).toBe(code);
      // None of them is worth a second job attempt; the expired ref was retried by the client itself
      // with the master ref Prismic named, 3 attempts in all.
      expect(searches(standin), `HTTP ${status}`).toHaveLength(status === 410 ? 3 : 1);
    }
    // The repository itself: a wrong access token, a repository that does not exist.
    const privateRepository = await standinWith([page('terms', '利用規約')], { accessToken: 'secret-token' });
    expect(await codeOf(sourceFor(privateRepository).refresh())).toBe('forbidden');
    await sourceFor(privateRepository, { accessToken: 'secret-token' }).refresh();
    const missing = await standinWith([]);
    missing.answer = (request) =>
      request.kind === 'repository' ? { status: 404, body: { message: 'Repository not found' } } : null;
    expect(await codeOf(sourceFor(missing).refresh())).toBe('not-found');
  });

  it('tries a failing job 3 times, at least 1500 ms apart, then reports unavailable', async () => {
    onFakeClock();
    const standin = await standinWith([]);
    standin.answer = () => ({ status: 503, body: { message: 'Service Unavailable' } });
    const source = sourceFor(standin);
    expect(await codeOf(source.refresh())).toBe('unavailable');
    const calls = repositoryCalls(standin);
    expect(calls).toHaveLength(3);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1495);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(1495);
  });
});

describe('the Prismic source: an outage', () => {
  it('serves the last good copy, from memory and after a restart from disk, and says it is stale', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const start = Date.parse('2026-11-24T10:00:00Z');
    vi.setSystemTime(start);
    const standin = await standinWith([page('terms', '利用規約'), page('privacy', 'プライバシーポリシー')]);
    const cacheFile = path.join(workDir, 'outage', 'cache', 'prismic-content.json');
    const first = recordingLogger();
    const source = sourceFor(standin, { cacheFile, logger: first.logger });
    await source.refresh();
    const succeededAt = source.health().lastSuccessAt;
    expect(succeededAt).not.toBeNull();
    expect(fs.existsSync(cacheFile)).toBe(true);

    await standin.stop();
    standin.publish([page('terms', '次の版')]); // the repository moved while unreachable
    vi.setSystemTime(start + 6000); // past the repository cache: this refresh has to ask Prismic
    expect(await codeOf(source.refresh())).toBe('unavailable');
    expect(source.health()).toMatchObject({ source: 'prismic', stale: true, lastSuccessAt: succeededAt });
    expect(source.health().lastError).toMatch(/^unavailable: /);
    expect((await source.getPage('terms'))?.data.title).toBe('利用規約');
    expect(await source.listPages()).toHaveLength(2);
    vi.setSystemTime(start + 12_000);
    expect(await codeOf(source.refresh())).toBe('unavailable');
    // Warned once for the change to stale, not for every failed refresh.
    expect(first.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    source.close();

    // A restart during the outage: the copy on disk answers at once.
    const second = recordingLogger();
    const restarted = sourceFor(standin, { cacheFile, logger: second.logger });
    expect((await restarted.getPage('privacy'))?.data.title).toBe('プライバシーポリシー');
    expect(restarted.health()).toMatchObject({ stale: true, lastSuccessAt: succeededAt });

    await standin.start();
    vi.setSystemTime(start + 18_000);
    await restarted.refresh();
    expect(restarted.health()).toMatchObject({ stale: false, lastError: null });
    expect(second.lines.filter((l) => l.level === 'info')).toHaveLength(1);
    expect((await restarted.getPage('terms'))?.data.title).toBe('次の版');
    expect(JSON.parse(fs.readFileSync(cacheFile, 'utf8')).ref).toBe(standin.masterRef);
  });

  it('answers pages at once from a copy older than 5 s and refreshes it in the background', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const start = Date.parse('2026-11-24T10:00:00Z');
    vi.setSystemTime(start);
    const standin = await standinWith([page('terms', '旧版')]);
    const source = sourceFor(standin);
    await source.refresh();
    standin.publish([page('terms', '新版')]);
    vi.setSystemTime(start + 6000);
    // Served from the copy without waiting; the read starts a refresh that picks the new version up.
    expect((await source.getPage('terms'))?.data.title).toBe('旧版');
    await vi.waitFor(async () => expect((await source.getPage('terms'))?.data.title).toBe('新版'), {
      timeout: 10_000,
      interval: 100,
    });
  });

  it('fails a page read with unavailable when there has never been a copy, without throwing for lists', async () => {
    onFakeClock();
    const standin = await standinWith([]);
    await standin.stop();
    const source = sourceFor(standin);
    const [pageRead, banners] = await Promise.all([codeOf(source.getPage('terms')), source.listBanners()]);
    expect(pageRead).toBe('unavailable');
    expect(banners).toEqual([]);
    expect(source.health()).toMatchObject({ stale: true, lastSuccessAt: null });
  });
});
