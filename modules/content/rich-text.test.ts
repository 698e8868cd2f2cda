// The rich-text link filter against the ways a browser reads a link off the site (D7): backslashes,
// encoded backslashes, tabs and newlines inside a scheme, protocol-relative links.
import { describe, it, expect } from 'vitest';
import { safeLinkUrl } from './rich-text';

/** Where a browser on the shop's page would go with this href. */
const resolved = (href: string) => new URL(href, 'https://shop.example/news/page').origin;

describe('safeLinkUrl', () => {
  it('keeps site paths and http(s) links as they are', () => {
    expect(safeLinkUrl('/')).toBe('/');
    expect(safeLinkUrl('/gacha/pokemon')).toBe('/gacha/pokemon');
    expect(safeLinkUrl('/gacha/pokemon?sort=new#top')).toBe('/gacha/pokemon?sort=new#top');
    expect(safeLinkUrl('/images/banner.webp')).toBe('/images/banner.webp');
    expect(safeLinkUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeLinkUrl('http://example.com')).toBe('http://example.com/');
  });

  it.each([
    '/\\host',
    '\\\\host',
    '/\\\\host',
    '\\/host',
    '//host',
    '///host',
    ' //host',
    '/\t/host',
    '/\n/host',
    '\t//host',
  ])('refuses %j, which a browser opens off the site', (url) => {
    expect(new URL(url.trim(), 'https://shop.example/').origin).not.toBe('https://shop.example');
    expect(safeLinkUrl(url)).toBeNull();
  });

  it('keeps encoded backslashes and dot segments on the site', () => {
    for (const url of ['/%5Chost', '/%5C%5Chost', '/.\\/host', '/a/../b']) {
      const href = safeLinkUrl(url);
      if (href !== null) expect(resolved(href), url).toBe('https://shop.example');
    }
    expect(safeLinkUrl('/%5Chost')).toBe('/%5Chost');
  });

  it('refuses other schemes however they are written', () => {
    for (const url of [
      'javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      ' javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      '\u0000javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'mailto:a@example.com',
      'tel:0312345678',
      'file:///etc/passwd',
    ]) {
      expect(safeLinkUrl(url), JSON.stringify(url)).toBeNull();
    }
  });

  it('refuses what is neither a site path nor an absolute URL', () => {
    for (const url of ['', ' ', 'gacha/pokemon', '?q=1', '#top', 'example.com'])
      expect(safeLinkUrl(url), JSON.stringify(url)).toBeNull();
  });
});
