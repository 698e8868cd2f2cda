// The operators' mail markup: lines become blocks, marks become spans, and a link that is not http(s) or a
// site path refuses the whole text (nothing of it reaches a member's page).
import { describe, it, expect } from 'vitest';
import { richTextFromMarkup } from './markup';

describe('richTextFromMarkup', () => {
  it('reads paragraphs, list items, numbered items, headings, bold and links', () => {
    const read = richTextFromMarkup(
      '## 週末のお知らせ\n**2倍**キャンペーン\n\n- [詳細](/news)\n1. https://x.example は文字のまま',
    );
    expect(read).toEqual({
      ok: true,
      value: [
        { type: 'heading2', text: '週末のお知らせ', spans: [] },
        { type: 'paragraph', text: '2倍キャンペーン', spans: [{ start: 0, end: 2, type: 'strong' }] },
        { type: 'list-item', text: '詳細', spans: [{ start: 0, end: 2, type: 'hyperlink', data: { url: '/news' } }] },
        { type: 'o-list-item', text: 'https://x.example は文字のまま', spans: [] },
      ],
    });
  });

  it('refuses a link that would leave the rules, with the reason in Japanese', () => {
    for (const url of ['javascript:alert(1)', '//evil.example', 'data:text/html,x']) {
      const read = richTextFromMarkup(`[押して](${url})`);
      expect(read.ok).toBe(false);
      expect(!read.ok && read.message).toMatch(/使えません/);
    }
  });

  it('refuses an http:// link (https only, as the hint says) and keeps https and site paths', () => {
    const http = richTextFromMarkup('[詳しく](http://example.jp/campaign)');
    expect(http).toMatchObject({ ok: false, message: expect.stringContaining('https://') });
    for (const url of ['https://example.jp/campaign', '/gacha/pokemon'])
      expect(richTextFromMarkup(`[詳しく](${url})`).ok).toBe(true);
  });

  it('keeps markup-like text that is not markup as it is, and drops empty lines', () => {
    expect(richTextFromMarkup('<b>太字</b>\n\n  \n')).toEqual({
      ok: true,
      value: [{ type: 'paragraph', text: '<b>太字</b>', spans: [] }],
    });
  });
});
