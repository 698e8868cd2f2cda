// The member number in the database: identity_member_code() (migration 0039) writes exactly what
// memberCode() writes, the search finds a member by it through users_member_code_idx, and a page's
// member tags come back in one query.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithSession, memberCode, memberQueryOf, memberTagsOf, searchMembers } from '#modules/identity';

const handle = useTestDatabase('identity-member-code');

/** The rows of a raw statement (both engines answer `{ rows }`). */
const rowsOf = <T>(answer: unknown) => (answer as { rows: T[] }).rows;

async function account(name: string) {
  const id = randomUUID().replaceAll('-', '');
  await createMemberWithSession(handle.db, {
    id,
    name,
    email: `${id}@example.jp`,
    sessionToken: randomUUID(),
    sessionExpiresAt: new Date(Date.now() + 86_400_000),
  });
  return id;
}

describe('the member number in SQL', () => {
  it('is the same as memberCode() for ids of every shape', async () => {
    const ids = [
      ...Array.from({ length: 300 }, (_, i) => `member-${i}`),
      ...Array.from({ length: 100 }, () => randomUUID()),
      'QbX3lO0Ii1abcdef',
      '会員ｱｲﾃﾞｨー🙂',
      'x',
    ];
    const answer = await handle.db.execute(
      sql`select id, identity_member_code(id) as code from unnest(${sql.raw(
        `array[${ids.map((id) => `'${id.replaceAll("'", "''")}'`).join(',')}]::text[]`,
      )}) as id`,
    );
    const byId = new Map(rowsOf<{ id: string; code: string }>(answer).map((r) => [r.id, r.code]));
    for (const id of ids) expect(byId.get(id), id).toBe(memberCode(id));
  });

  it('finds a member by the number as typed (any width, case or hyphen), through its index', async () => {
    const id = await account(`番号${randomUUID().slice(0, 4)}`);
    const code = memberCode(id);
    const policy = { countries: ['JP'] };
    const typed = [
      code,
      code.toLowerCase(),
      code.replace('-', ''),
      code.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
    ];
    for (const text of typed) {
      expect(memberQueryOf(text, policy)).toMatchObject({ by: 'code', code });
      const found = await searchMembers(handle.db, memberQueryOf(text, policy), { limit: 20, offset: 0 });
      expect(
        found.items.map((m) => m.id),
        text,
      ).toEqual([id]);
    }
    // The lookup can use the expression index (with scans discouraged, as on a table of many members).
    const plan = await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained = await tx.execute(
        sql`explain select id from users where identity_member_code(id) = ${code} limit 2`,
      );
      return rowsOf<{ 'QUERY PLAN': string }>(explained)
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    });
    expect(plan).toContain('users_member_code_idx');
    expect(plan).not.toContain('Seq Scan');
  });

  it('tags the members a page names: number, nickname and whether they left', async () => {
    const a = await account('たろう');
    const b = await account('はなこ');
    const tags = await memberTagsOf(handle.db, [a, b, a, 'nobody']);
    expect([...tags.keys()].sort()).toEqual([a, b].sort());
    expect(tags.get(a)).toEqual({ id: a, code: memberCode(a), nickname: 'たろう', deleted: false });
  });
});
