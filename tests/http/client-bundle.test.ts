// The browser bundle of the built shop carries no server code: no Drizzle table (a page component that
// imports a module's function at run time pulls the module, its tables and its queries into the browser).
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pageScripts, readManifest } from '../../bench/bundle/sizes';
import budgetFile from '../../bench/budgets/pages.json' with { type: 'json' };

const budgets = budgetFile as unknown as {
  default: number;
  files: { max: number };
  routes: Record<string, number>;
  own: Record<string, number>;
};

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

  it("keeps the farm page's own JavaScript within its budget (issue 16; bench/budgets/pages.json)", () => {
    // Its route module and the chunks neither the entry, the root nor the external layout loads already.
    const farm = pageScripts(path.resolve(import.meta.dirname, '../../build/client'), 'routes/app/farm');
    expect(farm.own.names.some((name) => name.startsWith('farm-'))).toBe(true);
    expect(farm.own.raw).toBeLessThanOrEqual(budgets.own['routes/app/farm']);
    // The date library stays out: the farm's countdowns are modules/kernel/dates/countdown.ts.
    expect(farm.own.names.filter((name) => name.startsWith('dates-'))).toEqual([]);
  });

  it('sends every page within its committed JavaScript budget, compressed (issue 17; bench/budgets/pages.json)', () => {
    const clientDir = path.resolve(import.meta.dirname, '../../build/client');
    const routeIds = Object.keys(readManifest(clientDir).routes).filter(
      (id) => id !== 'root' && !id.startsWith('layouts/'),
    );
    expect(routeIds.length).toBeGreaterThan(50);
    const over = routeIds.flatMap((id) => {
      const budget = budgets.routes[id] ?? budgets.default;
      const sent = pageScripts(clientDir, id).page.brotli;
      return sent > budget ? [`${id}: ${sent} bytes > ${budget}`] : [];
    });
    expect(over).toEqual([]);
    // The shell is one file (decision 080): no page starts with more scripts than the budget.
    const many = routeIds.flatMap((id) => {
      const files = pageScripts(clientDir, id).page.files;
      return files > budgets.files.max ? [`${id}: ${files} files > ${budgets.files.max}`] : [];
    });
    expect(many).toEqual([]);
    expect(pageScripts(clientDir, 'routes/home').page.files).toBeGreaterThan(5);
    // The pack page's own budget is issue 17's figure.
    expect(budgets.routes['routes/gacha/detail']).toBe(120_000);
  });

  it('keeps @date-fns/tz and date-fns out of the browser (dates are formatted with Intl: modules/kernel/dates)', () => {
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
    const leaking = scripts.filter((name) =>
      /timeZoneName:`longOffset`|timeZoneName:"longOffset"/.test(fs.readFileSync(path.join(assets, name), 'utf8')),
    );
    expect(leaking).toEqual([]);
  });
});
