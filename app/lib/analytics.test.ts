// The gacha event (specification section 3): user, pack, and whether the pack was opened from the
// top page or a genre's list.
import { describe, it, expect, beforeEach, afterAll } from 'vitest';
import { gachaEvent, pushInvitationEventFromCookie, rememberGachaOrigin, track } from './analytics';

class MemoryStorage {
  private values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

beforeEach(() => {
  Object.assign(globalThis, { sessionStorage: new MemoryStorage(), window: globalThis });
  delete (globalThis as { dataLayer?: unknown }).dataLayer;
});
// Unit test files share their worker (vitest.config.ts, isolate: false): leave no browser globals behind.
afterAll(() => {
  for (const name of ['sessionStorage', 'window', 'dataLayer', 'document'])
    delete (globalThis as Record<string, unknown>)[name];
});

describe('gacha event', () => {
  it('says where each pack was opened from', () => {
    rememberGachaOrigin('a', '/');
    rememberGachaOrigin('b', '/gacha/pokemon');
    rememberGachaOrigin('c', '/mypage');
    expect(gachaEvent('m1', 'a')).toEqual({
      event: 'gacha',
      user_id: 'm1',
      gacha_id: 'a',
      from_top: true,
      from_gacha: false,
    });
    expect(gachaEvent('m1', 'b')).toMatchObject({ from_top: false, from_gacha: true });
    expect(gachaEvent('m1', 'c')).toMatchObject({ from_top: false, from_gacha: false });
    expect(gachaEvent('m1', 'unknown')).toMatchObject({ from_top: false, from_gacha: false });
  });

  it('pushes events to the data layer', () => {
    track(gachaEvent('m1', 'a'));
    expect((globalThis as { dataLayer?: unknown[] }).dataLayer).toEqual([
      { event: 'gacha', user_id: 'm1', gacha_id: 'a', from_top: false, from_gacha: false },
    ]);
  });
});

describe('friend-invitation event', () => {
  /** A cookie jar that keeps what is written, as document.cookie does (a Max-Age=0 line deletes). */
  function cookieJar(initial: string) {
    let jar = initial;
    return {
      get cookie() {
        return jar;
      },
      set cookie(line: string) {
        const [pair] = line.split(';');
        const name = pair!.split('=')[0]!;
        const rest = jar.split('; ').filter((p) => p && !p.startsWith(`${name}=`));
        jar = (/Max-Age=0/.test(line) ? rest : [...rest, pair!]).join('; ');
      },
    };
  }

  it('pushes the specification’s fields once from the sign-up’s one-shot cookie, then deletes it', () => {
    Object.assign(globalThis, { document: cookieJar('other=1; oripa_invite_event=m2.m1') });
    expect(pushInvitationEventFromCookie()).toEqual({
      event: 'friend_invitation',
      invitee_user_id: 'm2',
      inviter_user_id: 'm1',
    });
    expect((globalThis as { dataLayer?: unknown[] }).dataLayer).toEqual([
      { event: 'friend_invitation', invitee_user_id: 'm2', inviter_user_id: 'm1' },
    ]);
    expect(document.cookie).toBe('other=1');
    expect(pushInvitationEventFromCookie()).toBeNull();
    expect((globalThis as { dataLayer?: unknown[] }).dataLayer).toHaveLength(1);
  });
});
