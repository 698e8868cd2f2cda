// The sanitiser against an XSS corpus (OWASP cheat-sheet style: script, event handlers, javascript:
// links with entity, whitespace and case tricks, data: and vbscript: URLs, SVG, MathML, CSS, frames,
// mutation XSS, unclosed tags), fed both as editor HTML and as structured Prismic data; the HTML round
// trip for the editor; and the document normaliser's shapes.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { MAX_BLOCKS, MAX_HTML_LENGTH, htmlToRichText } from './sanitize';
import { normaliseNoticeData, normalisePageData } from './normalise';
import { richTextToHtml } from './rich-text-html';
import { safeLinkUrl, type RichText, type RichTextBlock } from './rich-text';
import { XSS_CORPUS } from './testing';

const UNSAFE_URL = /^\s*(javascript|vbscript|data|file):/i;

/** Every URL the rich text holds: link spans and image blocks. */
function urlsIn(value: RichText): string[] {
  const urls: string[] = [];
  for (const block of value) {
    if (block.type === 'image') urls.push(block.url);
    if ('spans' in block)
      for (const span of block.spans)
        if (span.type === 'hyperlink' && 'url' in span.data && typeof span.data.url === 'string')
          urls.push(span.data.url);
  }
  return urls;
}

describe('htmlToRichText against the XSS corpus', () => {
  it.each(XSS_CORPUS)('keeps only safe data from %j', (html) => {
    const value = htmlToRichText(html);
    for (const url of urlsIn(value)) {
      expect(url).not.toMatch(UNSAFE_URL);
      expect(safeLinkUrl(url)).toBe(url);
    }
    // Text from dropped elements (script, style, svg) never survives, not even as text.
    const text = value.map((b) => ('text' in b ? b.text : '')).join('\n');
    expect(text).not.toMatch(/alert\(1\)<\/script>|@import|<script/i);
  });

  it('drops the content of script, style, svg, iframe and object', () => {
    expect(
      htmlToRichText(
        '<p>前</p><script>x()</script><style>p{}</style><svg><text>s</text></svg><iframe>i</iframe><object>o</object><p>後</p>',
      ),
    ).toEqual([
      { type: 'paragraph', text: '前', spans: [] },
      { type: 'paragraph', text: '後', spans: [] },
    ]);
  });

  it('keeps the text of a javascript: link but not the link', () => {
    expect(htmlToRichText('<p><a href="jav&#x09;ascript:alert(1)">こちら</a></p>')).toEqual([
      { type: 'paragraph', text: 'こちら', spans: [] },
    ]);
  });
});

describe('htmlToRichText reads editor output', () => {
  it('reads TipTap paragraphs, headings, marks and links', () => {
    expect(
      htmlToRichText(
        '<h2>当選について</h2><p>詳しくは<a target="_blank" rel="noopener" href="/guide"><strong>ガイド</strong></a>を<em>ご覧</em>ください</p>',
      ),
    ).toEqual([
      { type: 'heading2', text: '当選について', spans: [] },
      {
        type: 'paragraph',
        text: '詳しくはガイドをご覧ください',
        spans: [
          { start: 4, end: 7, type: 'strong' },
          { start: 4, end: 7, type: 'hyperlink', data: { url: '/guide' } },
          { start: 8, end: 10, type: 'em' },
        ],
      },
    ]);
  });

  it('flattens nested lists, one block per item in its own list kind', () => {
    expect(htmlToRichText('<ul><li><p>A</p><ol><li><p>A1</p></li></ol></li><li><p>B</p><p>続き</p></li></ul>')).toEqual(
      [
        { type: 'list-item', text: 'A', spans: [] },
        { type: 'o-list-item', text: 'A1', spans: [] },
        { type: 'list-item', text: 'B\n続き', spans: [] },
      ],
    );
  });

  it('normalises whitespace and keeps line breaks and preformatted text', () => {
    expect(htmlToRichText('<p>  a \n\t b <br>  c  </p><p> </p><pre><code>  x\n    y  </code></pre>')).toEqual([
      { type: 'paragraph', text: 'a b\nc', spans: [] },
      { type: 'preformatted', text: '  x\n    y', spans: [] },
    ]);
  });

  it('keeps images only with a safe source and a sane size', () => {
    expect(
      htmlToRichText(
        '<img src="/uploads/a.webp" alt=" 景品 " width="640" height="480">' +
          '<img src="http://insecure.example/a.png" width="1" height="1">' +
          '<img src="https://cdn.example/b.png" width="0" height="10">' +
          '<img src="https://cdn.example/c.png" width="99999" height="10">' +
          '<img src="https://cdn.example/d.png">',
      ),
    ).toEqual([{ type: 'image', url: '/uploads/a.webp', alt: '景品', dimensions: { width: 640, height: 480 } }]);
  });

  it('bounds the input and the number of blocks', () => {
    const many = '<p>x</p>'.repeat(MAX_BLOCKS + 500);
    expect(htmlToRichText(many)).toHaveLength(MAX_BLOCKS);
    const huge = `<p>${'あ'.repeat(MAX_HTML_LENGTH * 2)}</p>`;
    const value = htmlToRichText(huge);
    expect(value.reduce((n, b) => n + ('text' in b ? b.text.length : 0), 0)).toBeLessThanOrEqual(MAX_HTML_LENGTH);
  });
});

describe('richTextToHtml', () => {
  it('escapes every text and attribute', () => {
    const html = richTextToHtml([
      {
        type: 'paragraph',
        text: '<b>"&\'',
        spans: [{ start: 0, end: 3, type: 'hyperlink', data: { url: '/a?x="><script>' } }],
      },
      { type: 'image', url: '/i.png', alt: '"><script>alert(1)</script>', dimensions: { width: 2, height: 3 } },
    ]);
    expect(html).not.toMatch(/<script|<b>/);
    expect(html).toContain('<a href="/a?x=&quot;&gt;&lt;script&gt;">&lt;b&gt;</a>&quot;&amp;&#39;');
    expect(html).toContain('alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('leaves out unsafe links and images', () => {
    expect(
      richTextToHtml([
        {
          type: 'paragraph',
          text: 'x',
          spans: [{ start: 0, end: 1, type: 'hyperlink', data: { url: 'javascript:a()' } }],
        },
        { type: 'image', url: 'data:image/png;base64,AA', alt: null, dimensions: { width: 1, height: 1 } },
      ]),
    ).toBe('<p>x</p>');
  });

  const textType = fc.constantFrom(
    'paragraph',
    'heading1',
    'heading2',
    'heading3',
    'heading4',
    'list-item',
    'o-list-item',
  ) satisfies fc.Arbitrary<RichTextBlock['type']>;
  const word = fc.stringMatching(/^[a-zA-Z0-9あ-んア-ン漢字<>&"'=/;:.!?\u00a0-]{1,8}$/);
  const url = fc.constantFrom(
    '/guide',
    '/gacha/pokemon?sort=new#top',
    'https://example.com/a?b=1&c=2',
    'http://example.com/',
  );
  const run = fc.record({
    text: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
    gap: fc.constantFrom('', ' ', '\n'),
    strong: fc.boolean(),
    em: fc.boolean(),
    link: fc.option(url, { nil: null }),
  });
  /** A text block in canonical form: runs of marked words, single spaces, line breaks inside. */
  const textBlock = fc
    .record({ type: textType, runs: fc.array(run, { minLength: 1, maxLength: 5 }) })
    .map(({ type, runs }): RichTextBlock | undefined => {
      let text = '';
      const spans: Extract<RichTextBlock, { text: string }>['spans'] = [];
      runs.forEach((r, i) => {
        if (i > 0) text += r.gap;
        const start = text.length;
        text += r.text;
        if (r.strong) spans.push({ start, end: text.length, type: 'strong' });
        if (r.em) spans.push({ start, end: text.length, type: 'em' });
        if (r.link) spans.push({ start, end: text.length, type: 'hyperlink', data: { url: r.link } });
      });
      // The canonical form merges touching runs of the same mark, as the parser does.
      return htmlToRichText(richTextToHtml([{ type, text, spans }]))[0];
    })
    // A block of only no-break spaces is empty and read as no block.
    .filter((block): block is RichTextBlock => block !== undefined);
  const preBlock = fc
    .array(fc.stringMatching(/^ {0,3}[a-z<>&"]{1,6}$/), { minLength: 1, maxLength: 4 })
    .map((lines): RichTextBlock => ({ type: 'preformatted', text: lines.join('\n'), spans: [] }));
  const imageBlock = fc
    .record({
      url: fc.constantFrom('/uploads/a.webp', 'https://cdn.example/b.png'),
      alt: fc.option(fc.constantFrom('', '景品の写真', 'a "quoted" <alt> & more'), { nil: null }),
      width: fc.integer({ min: 1, max: 4000 }),
      height: fc.integer({ min: 1, max: 4000 }),
    })
    .map(({ url, alt, width, height }): RichTextBlock => ({ type: 'image', url, alt, dimensions: { width, height } }));
  const richText = fc.array(fc.oneof({ weight: 5, arbitrary: textBlock }, preBlock, imageBlock), { maxLength: 12 });

  it('is read back to the same value by htmlToRichText', () => {
    fc.assert(
      fc.property(richText, (value) => {
        expect(htmlToRichText(richTextToHtml(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips a written example exactly', () => {
    const value: RichText = [
      { type: 'heading2', text: '注意事項', spans: [] },
      {
        type: 'paragraph',
        text: '太字と斜体\n次の行のリンク',
        spans: [
          { start: 0, end: 3, type: 'strong' },
          { start: 2, end: 5, type: 'em' },
          { start: 9, end: 13, type: 'hyperlink', data: { url: 'https://example.com/' } },
        ],
      },
      { type: 'list-item', text: 'A', spans: [] },
      { type: 'o-list-item', text: 'B', spans: [] },
    ];
    expect(htmlToRichText(richTextToHtml(value))).toEqual(value);
  });
});

describe('normalisePageData', () => {
  it('drops unknown blocks and slices and unsafe URLs from structured data', () => {
    const page = normalisePageData({
      title: 'ガイド',
      extra: '<script>',
      body: [
        {
          type: 'paragraph',
          text: 'リンク',
          spans: [
            { start: 0, end: 3, type: 'hyperlink', data: { link_type: 'Web', url: 'javascript:alert(1)' } },
            { start: 0, end: 99, type: 'strong' },
          ],
        },
        {
          type: 'image',
          url: 'data:image/svg+xml,<svg onload=alert(1)>',
          alt: 'x',
          dimensions: { width: 1, height: 1 },
        },
        { type: 'embed', oembed: { embed_url: 'https://evil.example/v', html: '<script>alert(1)</script>' } },
        { type: 'embed', oembed: { embed_url: 'https://youtu.be/dQw4w9WgXcQ', html: '<script>alert(1)</script>' } },
        { type: 'marquee', text: 'x' },
      ],
      slices: [
        { slice_type: 'custom_html', primary: { html: '<script>alert(1)</script>' }, items: [] },
        {
          slice_type: 'table',
          primary: {
            table: {
              head: {
                rows: [{ cells: [{ type: 'header', content: [{ type: 'paragraph', text: '項目', spans: [] }] }] }],
              },
              body: {
                rows: [
                  {
                    cells: [
                      { type: 'data', content: [{ type: 'paragraph', text: '<script>alert(1)</script>', spans: [] }] },
                      {
                        type: 'evil',
                        content: [{ type: 'image', url: '/a.png', alt: '', dimensions: { width: 1, height: 1 } }],
                      },
                    ],
                  },
                ],
              },
            },
          },
          items: [],
        },
        { slice_type: 'button', primary: { label: '見る', link: { link_type: 'Web', url: 'vbscript:x' } }, items: [] },
        {
          slice_type: 'button',
          primary: { label: '規約', link: { link_type: 'Document', id: 'X', uid: 'terms', type: 'page' } },
          items: [],
        },
      ],
    });
    expect(page).toEqual({
      title: 'ガイド',
      body: [
        { type: 'paragraph', text: 'リンク', spans: [] },
        {
          type: 'embed',
          oembed: {
            embed_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
            type: 'video',
            provider_name: 'YouTube',
            title: null,
          },
        },
      ],
      slices: [
        {
          slice_type: 'table',
          items: [],
          primary: {
            caption: null,
            table: {
              head: {
                rows: [{ cells: [{ type: 'header', content: [{ type: 'paragraph', text: '項目', spans: [] }] }] }],
              },
              body: {
                rows: [
                  {
                    cells: [
                      { type: 'data', content: [{ type: 'paragraph', text: '<script>alert(1)</script>', spans: [] }] },
                      { type: 'data', content: [] },
                    ],
                  },
                ],
              },
            },
          },
        },
        { slice_type: 'button', items: [], primary: { label: '規約', link: { link_type: 'Web', url: '/terms' } } },
      ],
    });
  });

  it('bounds strings and survives junk', () => {
    expect(normalisePageData(null)).toEqual({ title: '', body: [] });
    expect(normalisePageData({ title: 42, body: 'x', slices: {} })).toEqual({ title: '', body: [] });
    expect(normalisePageData({ title: 'あ'.repeat(1000), body: [] }).title).toHaveLength(200);
    expect(normalisePageData({ title: 't', body: [], heroImage: 'javascript:alert(1)' })).toEqual({
      title: 't',
      body: [],
    });
    expect(normalisePageData({ title: 't', body: [], heroImage: '/images/hero.webp' }).heroImage).toBe(
      '/images/hero.webp',
    );
  });

  it('drops text slices without text (specification section 5), keeping one that shows an image', () => {
    const image = { type: 'image', url: '/media/pages/a.webp', alt: '景品', dimensions: { width: 800, height: 600 } };
    const page = normalisePageData({
      title: 't',
      body: [],
      slices: [
        { slice_type: 'text', items: [], primary: { text: [{ type: 'paragraph', text: '', spans: [] }] } },
        { slice_type: 'text', items: [], primary: { text: [{ type: 'paragraph', text: ' \n　', spans: [] }] } },
        { slice_type: 'text', items: [], primary: { text: [{ type: 'heading2', text: '見出し', spans: [] }] } },
        { slice_type: 'text', items: [], primary: { text: [image] } },
        { slice_type: 'text', items: [], primary: { text: [] } },
      ],
    });
    expect(page.slices).toEqual([
      { slice_type: 'text', items: [], primary: { text: [{ type: 'heading2', text: '見出し', spans: [] }] } },
      { slice_type: 'text', items: [], primary: { text: [image] } },
    ]);
    // The editor's empty text slice (TipTap's getHTML of nothing) is not kept either.
    expect(
      normalisePageData({
        title: 't',
        body: [],
        slices: [{ slice_type: 'text', items: [], primary: { text: htmlToRichText('<p></p><p> </p>') } }],
      }).slices,
    ).toBeUndefined();
  });

  it('normalises notices', () => {
    expect(
      normaliseNoticeData({
        title: 'お知らせ',
        body: [{ type: 'paragraph', text: 'x', spans: [] }],
        startsAt: '2026-12-01T00:00:00+09:00',
        endsAt: 'soon',
        important: 'yes',
      }),
    ).toEqual({
      title: 'お知らせ',
      body: [{ type: 'paragraph', text: 'x', spans: [] }],
      startsAt: '2026-12-01T00:00:00+09:00',
    });
  });
});
