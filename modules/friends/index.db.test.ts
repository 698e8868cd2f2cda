// Friends (decision 045): a request by code, oneself, duplicates, crossing requests, declines and their
// cool-down, removal, the limit under parallel requests, and another member's friendship (IDOR).
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { decideFriendship, friendCodeOf, friendListsOf, friendOf, requestFriend } from './index';

const handle = useTestDatabase('friends', { poolSize: 8 });
const RULES = { limit: 3, declinedCooldownDays: 7 };
const DAY = 24 * 60 * 60 * 1000;

describe('friends', () => {
  it('sends a request by code (full-width accepted), refuses oneself, a bad code and a duplicate; accept makes friends', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const codeB = await friendCodeOf(handle.db, b);
    expect(await requestFriend(handle.db, a, await friendCodeOf(handle.db, a), RULES)).toMatchObject({
      code: 'FRIEND_SELF',
    });
    expect(await requestFriend(handle.db, a, 'abc', RULES)).toMatchObject({ code: 'FRIEND_CODE_INVALID' });
    expect(await requestFriend(handle.db, a, 'ZZZZZZZZ', RULES)).toMatchObject({ code: 'FRIEND_CODE_UNKNOWN' });
    const wide = codeB.replace(/[A-Z0-9]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
    const sent = await requestFriend(handle.db, a, wide, RULES);
    expect(sent).toMatchObject({ ok: true, status: 'pending' });
    if (!sent.ok) return;
    expect(await requestFriend(handle.db, a, codeB, RULES)).toMatchObject({ code: 'FRIEND_REQUEST_PENDING' });
    expect((await friendListsOf(handle.db, b, { limit: 10 })).incoming.map((r) => r.memberId)).toEqual([a]);
    // A cannot accept their own request; B can.
    expect(await decideFriendship(handle.db, a, sent.friendshipId, 'accept', RULES)).toMatchObject({
      code: 'FRIEND_NOT_FOUND',
    });
    expect(await decideFriendship(handle.db, b, sent.friendshipId, 'accept', RULES)).toMatchObject({ ok: true });
    expect(await friendOf(handle.db, a, sent.friendshipId)).toBe(b);
    expect(await requestFriend(handle.db, b, await friendCodeOf(handle.db, a), RULES)).toMatchObject({
      code: 'FRIEND_ALREADY',
    });
  });

  it('turns crossing requests into a friendship, and never makes two rows for one pair', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const [codeA, codeB] = [await friendCodeOf(handle.db, a), await friendCodeOf(handle.db, b)];
    const both = await Promise.all([
      requestFriend(handle.db, a, codeB, RULES),
      requestFriend(handle.db, b, codeA, RULES),
    ]);
    expect(both.every((r) => r.ok)).toBe(true);
    expect(both.map((r) => (r.ok ? r.status : r.code)).sort()).toEqual(['accepted', 'pending']);
    expect((await friendListsOf(handle.db, a, { limit: 10 })).friends).toHaveLength(1);
  });

  it('keeps a declined requester waiting the cool-down; the other side may still ask; removal lets both ask again', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const sent = await requestFriend(handle.db, a, await friendCodeOf(handle.db, b), RULES);
    if (!sent.ok) throw new Error(sent.code);
    expect(await decideFriendship(handle.db, b, sent.friendshipId, 'decline', RULES)).toMatchObject({ ok: true });
    const now = new Date();
    expect(await requestFriend(handle.db, a, await friendCodeOf(handle.db, b), RULES, now)).toMatchObject({
      code: 'FRIEND_REQUEST_DECLINED_RECENTLY',
    });
    expect(
      await requestFriend(handle.db, a, await friendCodeOf(handle.db, b), RULES, new Date(now.getTime() + 8 * DAY)),
    ).toMatchObject({ ok: true, status: 'pending' });
    const accepted = await decideFriendship(handle.db, b, sent.friendshipId, 'accept', RULES);
    expect(accepted.ok).toBe(true);
    expect(await decideFriendship(handle.db, a, sent.friendshipId, 'remove', RULES)).toMatchObject({ ok: true });
    expect(await friendOf(handle.db, b, sent.friendshipId)).toBeNull();
    expect(await requestFriend(handle.db, b, await friendCodeOf(handle.db, a), RULES)).toMatchObject({ ok: true });
  });

  it("refuses another member's friendship with the same answer as an unknown one", async () => {
    const [a, b, c] = [await createMember(handle.db), await createMember(handle.db), await createMember(handle.db)];
    const sent = await requestFriend(handle.db, a, await friendCodeOf(handle.db, b), RULES);
    if (!sent.ok) throw new Error(sent.code);
    for (const decision of ['accept', 'decline', 'cancel', 'remove'] as const)
      expect(await decideFriendship(handle.db, c, sent.friendshipId, decision, RULES)).toMatchObject({
        code: 'FRIEND_NOT_FOUND',
      });
    expect(await decideFriendship(handle.db, c, 99_999_999, 'accept', RULES)).toMatchObject({
      code: 'FRIEND_NOT_FOUND',
    });
    expect(await friendOf(handle.db, c, sent.friendshipId)).toBeNull();
    expect((await friendListsOf(handle.db, c, { limit: 10 })).incoming).toEqual([]);
  });

  it('holds the limit (friends and sent requests) when many requests arrive at once', async () => {
    const host = await createMember(handle.db);
    const others = await Promise.all(Array.from({ length: 6 }, () => createMember(handle.db)));
    const codes = await Promise.all(others.map((o) => friendCodeOf(handle.db, o)));
    const sent = await Promise.all(codes.map((code) => requestFriend(handle.db, host, code, RULES)));
    expect(sent.filter((s) => s.ok)).toHaveLength(RULES.limit);
    expect(sent.filter((s) => !s.ok).map((s) => (s.ok ? '' : s.code))).toEqual(
      Array(6 - RULES.limit).fill('FRIEND_LIMIT_REACHED'),
    );
    // A member at the limit cannot be asked either.
    const late = await createMember(handle.db);
    expect(await requestFriend(handle.db, late, await friendCodeOf(handle.db, host), RULES)).toMatchObject({
      code: 'FRIEND_OTHER_LIMIT_REACHED',
    });
  });
});
