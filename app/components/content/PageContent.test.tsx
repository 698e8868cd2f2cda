// The content components render only safe markup: the XSS corpus, as editor HTML through the sanitiser
// and as structured Prismic data through normalisePageData, ends up with no script, no event handler,
// no javascript: URL, no SVG, no inline style and no frame before a click. Also each field kind's markup.
import { describe, it, expect } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ElementType, parseDocument } from 'htmlparser2';
import { htmlToRichText, normalisePageData } from '#modules/content';
import type { PageData, Slice } from '#modules/content/render';
import { XSS_CORPUS, XSS_PAGE_DATA } from '#modules/content/testing';
import { PageContent } from './PageContent';
import { Embed } from './Embed';
import { ContentTable } from './ContentTable';
import { ContentImage } from './ContentImage';
import { ContentButton, ContentLink } from './ContentLink';
import { SliceZone } from './SliceZone';

type Element = { name: string; attribs: Record<string, string> };

/** Every element in the markup, read the way a browser's parser reads tags and attributes. */
function elements(markup: string): Element[] {
  const found: Element[] = [];
  const visit = (nodes: ReturnType<typeof parseDocument>['children']) => {
    for (const node of nodes) {
      if (node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style) {
        found.push({ name: node.name, attribs: node.attribs });
        visit(node.children);
      }
    }
  };
  visit(parseDocument(markup, { decodeEntities: true }).children);
  return found;
}

const URL_ATTRIBUTES = ['href', 'src', 'srcset', 'action', 'formaction', 'xlink:href', 'data', 'poster'];

/** The page-level promise: nothing in the markup can run script or load from elsewhere before a click. */
function expectSafeMarkup(markup: string) {
  expect(markup).not.toMatch(/<(script|svg|math|iframe|object|embed|style|link|meta|base|form)\b/i);
  for (const element of elements(markup)) {
    expect(['script', 'svg', 'iframe', 'object', 'style']).not.toContain(element.name);
    for (const [name, value] of Object.entries(element.attribs)) {
      expect(name).not.toMatch(/^on/i);
      expect(name).not.toBe('style');
      if (URL_ATTRIBUTES.includes(name)) {
        expect(value).not.toMatch(/^\s*(javascript|vbscript|data):/i);
        // Before a click nothing loads from the embed providers (a plain link to their page is fine).
        if (name !== 'href') expect(value).not.toMatch(/youtube|ytimg|twitter|x\.com/i);
      }
    }
  }
}

const render = (data: PageData) => renderToStaticMarkup(<PageContent data={data} />);

describe('PageContent against the XSS corpus', () => {
  it.each(XSS_CORPUS)('renders editor HTML %j as safe markup', (html) => {
    const markup = render({ title: '', body: htmlToRichText(html) });
    expectSafeMarkup(markup);
    expect(markup).not.toMatch(/javascript:/i);
  });

  it('renders structured Prismic data as safe markup, attacks kept only as text', () => {
    const data = normalisePageData(XSS_PAGE_DATA);
    const markup = render(data);
    expectSafeMarkup(markup);
    // The table cell's script is text, escaped; the provider's html and thumbnail are nowhere.
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markup).not.toContain('hqdefault');
    expect(markup).not.toContain('widgets.js');
    // What is safe survives: the allowed embeds as placeholders, the Prismic image, the external button.
    expect(markup).toContain('YouTubeの動画を表示する');
    expect(markup).toContain('Xの投稿を表示する');
    expect(markup).toContain('src="https://images.prismic.io/x.png"');
    expect(markup).toContain('href="https://example.com/"');
    expect(elements(markup).filter((e) => e.name === 'a' && e.attribs.href?.startsWith('javascript'))).toEqual([]);
  });

  it('would catch unsafe markup (the check itself can fail)', () => {
    expect(() => expectSafeMarkup('<p><a href="javascript:alert(1)">x</a></p>')).toThrow();
    expect(() => expectSafeMarkup('<img src="/x.png" onerror="alert(1)">')).toThrow();
    expect(() => expectSafeMarkup('<p style="color:red">x</p>')).toThrow();
    expect(() => expectSafeMarkup('<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>')).toThrow();
  });
});

describe('Embed', () => {
  const youtube = { embed_url: 'https://youtu.be/dQw4w9WgXcQ', title: 'ガチャ開封' };
  const x = { embed_url: 'https://twitter.com/jack/status/20' };

  it('shows a click-to-load card and loads nothing from the provider before the click', () => {
    const markup = renderToStaticMarkup(<Embed embed={youtube} />);
    expect(markup).toContain('<button type="button"');
    expect(markup).toContain('YouTubeの動画を表示する');
    expect(markup).toContain('押すまでは接続しません');
    expect(markup).not.toContain('<iframe');
    expect(markup).not.toContain('<img');
    expect(markup).not.toContain('youtube-nocookie');
    expectSafeMarkup(markup);
    const xMarkup = renderToStaticMarkup(<Embed embed={x} />);
    expect(xMarkup).toContain('Xの投稿を表示する');
    expect(xMarkup).not.toContain('platform.twitter.com');
  });

  it('after the click, a titled, sandboxed, lazy frame on the privacy-friendly address', () => {
    const [frame] = elements(renderToStaticMarkup(<Embed embed={youtube} startLoaded />)).filter(
      (e) => e.name === 'iframe',
    );
    expect(frame?.attribs).toMatchObject({
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      title: 'YouTubeの動画：ガチャ開封',
      sandbox: 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox',
      referrerpolicy: 'strict-origin-when-cross-origin',
      loading: 'lazy',
    });
    const [tweet] = elements(renderToStaticMarkup(<Embed embed={x} startLoaded />)).filter((e) => e.name === 'iframe');
    expect(tweet?.attribs.src).toBe('https://platform.twitter.com/embed/Tweet.html?id=20&dnt=true');
    expect(tweet?.attribs.title).toBe('Xの投稿');
  });

  it('renders nothing for a provider outside the allow-list', () => {
    expect(renderToStaticMarkup(<Embed embed={{ embed_url: 'https://vimeo.com/1' }} startLoaded />)).toBe('');
  });
});

describe('ContentTable', () => {
  it('marks header cells with scopes and scrolls inside a labelled region', () => {
    const cell = (text: string, type: 'header' | 'data' = 'data') => ({
      type,
      content: [{ type: 'paragraph' as const, text, spans: [] }],
    });
    const markup = renderToStaticMarkup(
      <ContentTable
        caption="排出率"
        table={{
          head: { rows: [{ cells: [cell('等級', 'header'), cell('確率', 'header')] }] },
          body: { rows: [{ cells: [cell('S賞', 'header'), cell('1%')] }] },
        }}
      />,
    );
    expect(markup).toContain('role="region" aria-label="排出率" tabindex="0"');
    expect(markup).toContain('overflow-x-auto');
    expect(markup).toContain('<caption');
    expect(markup).toMatch(/<thead[^>]*><tr[^>]*><th scope="col"[^>]*><p>等級<\/p><\/th><th scope="col"/);
    expect(markup).toMatch(/<tbody><tr[^>]*><th scope="row"[^>]*><p>S賞<\/p><\/th><td[^>]*><p>1%<\/p><\/td>/);
  });
});

describe('ContentImage and links', () => {
  it('serves site images through the resizer and others as a plain lazy image, always with a size', () => {
    const local = renderToStaticMarkup(
      <ContentImage image={{ url: '/media/pages/a.webp', alt: '景品', dimensions: { width: 800, height: 600 } }} />,
    );
    expect(local).toContain('srcSet="/_img?src=%2Fmedia%2Fpages%2Fa.webp');
    expect(local).toMatch(/alt="景品" width="800" height="600" loading="lazy"/);
    const remote = renderToStaticMarkup(
      <ContentImage
        image={{ url: 'https://images.prismic.io/r/a.png', alt: null, dimensions: { width: 4, height: 3 } }}
      />,
    );
    expect(remote).toMatch(
      /^<img src="https:\/\/images\.prismic\.io\/r\/a\.png" alt="" width="4" height="3" loading="lazy"/,
    );
    expect(
      renderToStaticMarkup(
        <ContentImage image={{ url: 'http://insecure.example/a.png', alt: '', dimensions: { width: 1, height: 1 } }} />,
      ),
    ).toBe('');
  });

  it('marks links off the site and keeps site links plain', () => {
    expect(renderToStaticMarkup(<ContentLink link={{ link_type: 'Web', url: '/guide' }}>ガイド</ContentLink>)).toBe(
      '<a href="/guide" class="text-primary-ink underline">ガイド</a>',
    );
    const external = renderToStaticMarkup(
      <ContentLink link={{ link_type: 'Web', url: 'https://example.com/' }}>公式</ContentLink>,
    );
    expect(external).toContain('rel="noopener noreferrer"');
    expect(external).toContain('外部サイト');
    expect(
      renderToStaticMarkup(<ContentLink link={{ link_type: 'Web', url: 'javascript:alert(1)' }}>x</ContentLink>),
    ).toBe('x');
    expect(
      renderToStaticMarkup(
        <ContentButton label="規約" link={{ link_type: 'Document', id: 'X', uid: 'terms', type: 'page' }} />,
      ),
    ).toContain('href="/terms"');
    expect(renderToStaticMarkup(<ContentButton label="押す" link={{ link_type: 'Any' }} />)).toBe('');
  });
});

describe('SliceZone and PageContent', () => {
  it('renders the body, then each known slice in order; unknown slices render nothing', () => {
    const slices = [
      { slice_type: 'text', primary: { text: [{ type: 'paragraph', text: '本文の続き', spans: [] }] }, items: [] },
      { slice_type: 'marquee', primary: { text: '流れる文字' }, items: [] } as unknown as Slice,
      { slice_type: 'button', primary: { label: 'ガチャへ', link: { link_type: 'Web', url: '/gacha' } }, items: [] },
    ] satisfies Slice[];
    const markup = render({ title: 't', body: [{ type: 'paragraph', text: '本文', spans: [] }], slices });
    expect(markup.indexOf('本文')).toBeLessThan(markup.indexOf('本文の続き'));
    expect(markup.indexOf('本文の続き')).toBeLessThan(markup.indexOf('ガチャへ'));
    expect(markup).not.toContain('流れる文字');
    expect(markup).not.toContain('marquee');
    expect(renderToStaticMarkup(<SliceZone slices={[]} />)).toBe('');
  });

  it('renders the body block only when it has text or an image (specification section 5)', () => {
    const bodyBlock = '<div class="flex flex-col gap-2 text-[15px]">';
    const button = {
      slice_type: 'button',
      primary: { label: 'ガチャへ', link: { link_type: 'Web', url: '/gacha' } },
      items: [],
    } satisfies Slice;
    // Empty paragraphs (an untouched editor) leave no empty block above the slices.
    const blank = render({
      title: 't',
      body: [
        { type: 'paragraph', text: '', spans: [] },
        { type: 'paragraph', text: ' 　', spans: [] },
      ],
      slices: [button],
    });
    expect(blank).not.toContain(bodyBlock);
    expect(blank).not.toContain('<p');
    expect(blank).toContain('ガチャへ');
    // An image-only body still shows its image; a body with text shows it.
    const imageOnly = render({
      title: 't',
      body: [{ type: 'image', url: '/media/pages/a.webp', alt: '景品', dimensions: { width: 800, height: 600 } }],
    });
    expect(imageOnly).toContain(bodyBlock);
    expect(imageOnly).toContain('alt="景品"');
    expect(render({ title: 't', body: [{ type: 'paragraph', text: '本文', spans: [] }] })).toContain(
      `${bodyBlock}<p class="leading-relaxed">本文</p>`,
    );
  });

  it('renders overlapping bold and italic both, and line breaks', () => {
    const markup = render({
      title: 't',
      body: [
        {
          type: 'paragraph',
          text: '太字と斜体\n次',
          spans: [
            { start: 0, end: 3, type: 'strong' },
            { start: 2, end: 5, type: 'em' },
          ],
        },
      ],
    });
    expect(markup).toContain('<strong>太字</strong><strong><em>と</em></strong><em>斜体</em><br/>次');
  });
});
