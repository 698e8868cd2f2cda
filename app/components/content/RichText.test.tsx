// Rich text renders as safe elements: lists grouped, links limited to http(s) and site paths.
import { describe, it, expect } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { RichText } from './RichText';
import { isRichTextFilled, type RichText as RichTextValue } from '#modules/content/rich-text';

describe('RichText', () => {
  it('groups consecutive list items into one list', () => {
    const html = renderToStaticMarkup(
      <RichText
        value={[
          { type: 'paragraph', text: '前', spans: [] },
          { type: 'list-item', text: 'A', spans: [] },
          { type: 'list-item', text: 'B', spans: [] },
          { type: 'o-list-item', text: '1', spans: [] },
        ]}
      />,
    );
    expect(html).toContain(
      '<ul class="ml-5 list-disc space-y-1"><li>A</li><li>B</li></ul><ol class="ml-5 list-decimal space-y-1"><li>1</li></ol>',
    );
  });

  it('escapes text and drops javascript: links', () => {
    const value: RichTextValue = [
      {
        type: 'paragraph',
        text: '<script>alert(1)</script> こちら',
        spans: [{ start: 27, end: 30, type: 'hyperlink', data: { url: 'javascript:alert(1)' } }],
      },
      { type: 'paragraph', text: 'ガイド', spans: [{ start: 0, end: 3, type: 'hyperlink', data: { url: '/guide' } }] },
    ];
    const html = renderToStaticMarkup(<RichText value={value} />);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="/guide" class="text-primary-ink underline">ガイド</a>');
  });

  it('counts rich text as filled only when it has text (specification section 5)', () => {
    expect(isRichTextFilled([{ type: 'paragraph', text: '  ', spans: [] }])).toBe(false);
    expect(isRichTextFilled([{ type: 'image', url: '/a.png', alt: null, dimensions: { width: 1, height: 1 } }])).toBe(
      false,
    );
    expect(isRichTextFilled([{ type: 'heading2', text: '見出し', spans: [] }])).toBe(true);
    expect(isRichTextFilled(null)).toBe(false);
  });
});
