// The browser bundle of the built shop carries no server code: no Drizzle table (a page component that
// imports a module's function at run time pulls the module, its tables and its queries into the browser).
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pageScripts } from '../../bench/bundle/sizes';

const assets = path.resolve(import.meta.dirname, '../../build/client/assets');

describe('the browser bundle', () => {
  it('has scripts, and none of them holds a Drizzle table or a SQL function name', () => {
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(5);
    const leaking = scripts.filter((name) =>
      /drizzle:Columns|wallet_grant|draw_execute/.test(fs.readFileSync(path.join(assets, name), 'utf8')),
    );
    expect(leaking).toEqual([]);
  });

  it('leaves the content sanitiser (sanitize-html, htmlparser2) on the server', () => {
    // The content components import only #modules/content/render (docs/decisions/042).
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
    const leaking = scripts.filter((name) =>
      /allowedSchemesAppliedToAttributes|nonTextTags|onopentagname/.test(
        fs.readFileSync(path.join(assets, name), 'utf8'),
      ),
    );
    expect(leaking).toEqual([]);
  });

  it("keeps the farm page's own JavaScript under 60 kB (issue 16; bench:bundle reports it)", () => {
    // Its route module and the chunks neither the entry, the root nor the external layout loads already.
    const farm = pageScripts(path.resolve(import.meta.dirname, '../../build/client'), 'routes/app/farm');
    expect(farm.own.names.some((name) => name.startsWith('farm-'))).toBe(true);
    expect(farm.own.raw).toBeLessThan(60_000);
    // The date library stays out: the farm's countdowns are app/lib/dates/countdown.ts.
    expect(farm.own.names.filter((name) => name.startsWith('dates-'))).toEqual([]);
  });
});
