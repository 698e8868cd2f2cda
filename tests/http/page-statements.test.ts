// SQL statements per public page render, against the committed budget (bench/budgets/page-statements.json,
// issue 17): a count, not a timing. The shop runs in this process with the page cache off, so every request
// renders; node-postgres' Client#query is counted around one request at a time (jobs off, the maintenance
// switch trusted for a minute, so nothing else queries between). PostgreSQL only: the count is the same
// code on PGlite, but its driver is another one.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { countStatements, type StatementCounter } from '#tests/sql-count';
import { startOwnShop, OWN_SHOP_AUTH_SECRET as AUTH_SECRET, type OwnShop } from '#tests/own-shop';
import { createSessionMembers } from '#tests/members';
import budgetFile from '../../bench/budgets/page-statements.json' with { type: 'json' };

const budgets = budgetFile as unknown as { visitor: Record<string, number>; member: Record<string, number> };
const onPostgres = Boolean(process.env.TEST_DATABASE_URL) && process.env.TEST_DATABASE !== 'pglite';

let own: OwnShop | undefined;
let shop: OwnShop['shop'];
let base: string;
let sql: StatementCounter | undefined;

beforeAll(async () => {
  if (!onPostgres) return;
  own = await startOwnShop('page_statements', { PAGE_CACHE_SECONDS: '0', MAINTENANCE_CACHE_SECONDS: '60' });
  ({ shop, base } = own);
  sql = countStatements();
  sql.counting = false;
});
afterAll(async () => {
  sql?.restore();
  await own?.stop();
});

/** The statements of one request, the fewest over three renders (the first warms the shop's caches). */
async function statementsOf(path: string, cookie?: string): Promise<string[]> {
  let fewest: string[] | undefined;
  for (let round = 0; round < 4; round++) {
    sql!.reset();
    sql!.counting = round > 0;
    const response = await fetch(base + path, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    await response.text();
    sql!.counting = false;
    expect(response.status, path).toBe(200);
    if (round > 0 && (!fewest || sql!.texts.length < fewest.length)) fewest = sql!.texts;
  }
  return fewest!;
}

describe.skipIf(!onPostgres)(
  `SQL statements per page render${onPostgres ? '' : ' (skipped: counted on PostgreSQL)'}`,
  () => {
    it('renders each public page for a visitor within its statement budget', async () => {
      const counts: Record<string, number> = {};
      for (const path of Object.keys(budgets.visitor)) counts[path] = (await statementsOf(path)).length;
      console.log('[page statements] visitor', JSON.stringify(counts));
      for (const [path, budget] of Object.entries(budgets.visitor)) {
        expect(counts[path], `${path}: ${counts[path]} statements, budget ${budget}`).toBeLessThanOrEqual(budget);
        // A render that reads nothing would mean the counter is broken, not the page fast.
        expect(counts[path]).toBeGreaterThan(0);
      }
    });

    it('renders a member’s pages within their statement budget', async () => {
      const [member] = await createSessionMembers(shop.services.db, { count: 1, secret: AUTH_SECRET, paid: 1000 });
      const name = (await shop.services.auth.$context).authCookies.sessionToken.name;
      const cookie = `${name}=${member!.bearer}`;
      const counts: Record<string, number> = {};
      for (const path of Object.keys(budgets.member)) counts[path] = (await statementsOf(path, cookie)).length;
      console.log('[page statements] member', JSON.stringify(counts));
      if (process.env.SHOW_STATEMENTS)
        for (const path of Object.keys(budgets.member))
          console.log(
            path,
            (await statementsOf(path, cookie)).map((s) => s.replace(/\s+/g, ' ').slice(0, 160)).join('\n'),
          );
      for (const [path, budget] of Object.entries(budgets.member)) {
        expect(counts[path], `${path}: ${counts[path]} statements, budget ${budget}`).toBeLessThanOrEqual(budget);
        expect(counts[path]).toBeGreaterThan(0);
      }
    });
  },
);
