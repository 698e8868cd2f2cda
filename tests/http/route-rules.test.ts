// Route rules with a redirect from the settings (ROUTE_REDIRECTS; specification section 4, issue 29
// item 15): the test shop has '/lp/outside' → an https URL and '/lp/inside' → a path on the site.
import { describe, it, expect } from 'vitest';
import { get } from '#tests/http';

describe('configured route rules', () => {
  it('redirect a document request to the absolute URL or the site path, in any spelling of the path', async () => {
    const outside = await get('/lp/outside');
    expect(outside.status).toBe(302);
    expect(outside.location).toBe('https://campaign.example.jp/oripa?from=stella');
    expect((await get('/LP/Outside/?utm_source=x')).location).toBe('https://campaign.example.jp/oripa?from=stella');
    const inside = await get('/lp/inside');
    expect(inside.status).toBe(302);
    expect(inside.location).toBe('/gacha/pokemon?tab=new');
    // a one-level path with no page of its own still goes on (no not-found first)
    expect((await get('/old-campaign')).location).toBe('/winter-campaign');
    // other paths under /lp are untouched: the not-found page
    expect((await get('/lp/other')).status).toBe(404);
  });

  it("answers a client navigation's data request with the same redirect, which the router follows", async () => {
    const outside = await get('/lp/outside.data');
    expect(outside.status).toBe(202);
    // React Router's single-fetch redirect, in its encoded body (the router then does the full load itself)
    expect(outside.body).toContain('https://campaign.example.jp/oripa?from=stella');
    const inside = await get('/lp/inside.data');
    expect(inside.status).toBe(202);
    expect(inside.body).toContain('/gacha/pokemon?tab=new');
  });
});
