// The popup rules of the specification (section 4) with a fake window and fake timers.
import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import {
  createPopupSignIn,
  popupFeatures,
  PopupError,
  POPUP_CLOSED_GRACE_MS,
  POPUP_MESSAGE_TYPE,
  POPUP_POLL_MS,
  type PopupHost,
  type PopupWindow,
} from './auth-popup';

const ORIGIN = 'https://shop.example.jp';

class FakePopup implements PopupWindow {
  closed = false;
  close() {
    this.closed = true;
  }
}

function fakeHost(options: { blocked?: boolean } = {}) {
  const listeners = new Set<(event: MessageEvent) => void>();
  const opened: Array<{ url: string; target: string; features: string; popup: FakePopup }> = [];
  const host: PopupHost = {
    location: { origin: ORIGIN },
    screenX: 100,
    screenY: 50,
    outerWidth: 1300,
    outerHeight: 900,
    open(url, target, features) {
      if (options.blocked) return null;
      const popup = new FakePopup();
      opened.push({ url, target, features, popup });
      return popup;
    },
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
  };
  const post = (data: unknown, from: { origin?: string; source?: unknown } = {}) => {
    const event = { data, origin: from.origin ?? ORIGIN, source: from.source ?? opened.at(-1)?.popup } as MessageEvent;
    for (const listener of [...listeners]) listener(event);
  };
  return { host, opened, listeners, post };
}

const timers = {
  setInterval: (handler: () => void, ms: number) => setInterval(handler, ms),
  clearInterval: (id: unknown) => clearInterval(id as ReturnType<typeof setInterval>),
  setTimeout: (handler: () => void, ms: number) => setTimeout(handler, ms),
  clearTimeout: (id: unknown) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('popup sign-in', () => {
  it('opens a centred 500×600 window and submits the form into it', async () => {
    const { host, opened, post } = fakeHost();
    const popups = createPopupSignIn(host, timers);
    const submitted: string[] = [];
    const result = popups.open((target) => submitted.push(target));
    expect(opened).toHaveLength(1);
    expect(opened[0]!.url).toBe('about:blank');
    expect(submitted).toEqual([opened[0]!.target]);
    expect(opened[0]!.features).toContain('width=500,height=600');
    expect(opened[0]!.features).toContain('left=500,top=200');
    post({ type: POPUP_MESSAGE_TYPE, ok: true, redirect: '/mypage' });
    await expect(result).resolves.toEqual({ ok: true, redirect: '/mypage' });
    expect(popups.pending).toBe(false);
  });

  it('passes the error the popup reports', async () => {
    const { host, post } = fakeHost();
    const result = createPopupSignIn(host, timers).open(() => undefined);
    post({ type: POPUP_MESSAGE_TYPE, ok: false, error: 'account_not_linked' });
    await expect(result).resolves.toEqual({ ok: false, error: 'account_not_linked' });
  });

  it('ignores messages from another origin, another window or of another shape', async () => {
    const { host, post, listeners } = fakeHost();
    const popups = createPopupSignIn(host, timers);
    let settled = false;
    const result = popups.open(() => undefined).finally(() => (settled = true));
    post({ type: POPUP_MESSAGE_TYPE, ok: true, redirect: '/x' }, { origin: 'https://evil.example' });
    post({ type: POPUP_MESSAGE_TYPE, ok: true, redirect: '/x' }, { source: {} });
    post({ type: 'other', ok: true, redirect: '/x' });
    post({ type: POPUP_MESSAGE_TYPE, ok: 'yes' });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    expect(listeners.size).toBe(1);
    post({ type: POPUP_MESSAGE_TYPE, ok: true, redirect: '/ok' });
    await expect(result).resolves.toEqual({ ok: true, redirect: '/ok' });
    expect(listeners.size).toBe(0);
  });

  it('a new popup cancels the pending one: cancelled-popup-request, and the old window closes', async () => {
    const { host, opened, post } = fakeHost();
    const popups = createPopupSignIn(host, timers);
    const first = popups.open(() => undefined);
    const second = popups.open(() => undefined);
    await expect(first).rejects.toEqual(new PopupError('auth/cancelled-popup-request'));
    expect(opened[0]!.popup.closed).toBe(true);
    post({ type: POPUP_MESSAGE_TYPE, ok: true, redirect: '/second' });
    await expect(second).resolves.toEqual({ ok: true, redirect: '/second' });
  });

  it('a window the member closes ends as popup-closed-by-user 8 seconds after it is seen closed', async () => {
    const { host, opened } = fakeHost();
    const popups = createPopupSignIn(host, timers);
    let error: unknown = null;
    const result = popups.open(() => undefined).catch((caught) => (error = caught));
    opened[0]!.popup.close();
    await vi.advanceTimersByTimeAsync(POPUP_POLL_MS);
    await vi.advanceTimersByTimeAsync(POPUP_CLOSED_GRACE_MS - 1);
    expect(error).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await result;
    expect(error).toEqual(new PopupError('auth/popup-closed-by-user'));
    expect(POPUP_CLOSED_GRACE_MS).toBe(8_000);
    expect(popups.pending).toBe(false);
  });

  it('a result that arrives during those 8 seconds still wins', async () => {
    const { host, opened, post } = fakeHost();
    const result = createPopupSignIn(host, timers).open(() => undefined);
    opened[0]!.popup.close();
    await vi.advanceTimersByTimeAsync(POPUP_POLL_MS + 3_000);
    post({ type: POPUP_MESSAGE_TYPE, ok: true, redirect: '/late' });
    await expect(result).resolves.toEqual({ ok: true, redirect: '/late' });
    await vi.advanceTimersByTimeAsync(POPUP_CLOSED_GRACE_MS);
  });

  it('a blocked window is popup-blocked, and nothing is submitted', async () => {
    const { host } = fakeHost({ blocked: true });
    const submit = vi.fn();
    await expect(createPopupSignIn(host, timers).open(submit)).rejects.toEqual(new PopupError('auth/popup-blocked'));
    expect(submit).not.toHaveBeenCalled();
  });

  it('keeps the window on screen', () => {
    expect(popupFeatures({})).toContain('left=0,top=0');
  });
});
