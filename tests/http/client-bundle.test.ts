// The browser bundle of the built shop carries no server code: no Drizzle table (a page component that
// imports a module's function at run time pulls the module, its tables and its queries into the browser).
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

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
});
