// The inline reload guard (chunk-guard-boot.ts) run in a small stand-in of a browser window: a failed
// module fetch reloads once per path within 10 s, then shows the message; other errors and a running
// app are left alone.
import { describe, it, expect } from 'vitest';
import vm from 'node:vm';
import { chunkGuardBootScript, CHUNK_RELOAD_STORAGE_KEY } from './chunk-guard-boot';

function fakeWindow(now: number, hydrated = false) {
  const listeners: Record<string, ((event: unknown) => void)[]> = {};
  const storage = new Map<string, string>();
  const appended: { attributes: Record<string, string>; innerHTML: string }[] = [];
  const state = { reloads: 0, now };
  const element = () => {
    const el = {
      attributes: {} as Record<string, string>,
      innerHTML: '',
      className: '',
      setAttribute(name: string, value: string) {
        el.attributes[name] = value;
      },
      querySelector: () => ({ addEventListener: () => undefined, focus: () => undefined }),
      remove: () => undefined,
    };
    return el;
  };
  const context = {
    Date: { now: () => state.now },
    JSON,
    RegExp,
    String,
    location: { pathname: '/gacha/pokemon', reload: () => void state.reloads++ },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    },
    document: {
      documentElement: { getAttribute: () => (hydrated ? 'true' : null) },
      createElement: element,
      getElementById: () => null,
      body: { appendChild: (el: ReturnType<typeof element>) => void appended.push(el) },
    },
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      (listeners[type] ??= []).push(listener);
    },
  };
  vm.runInNewContext(chunkGuardBootScript(10_000), context);
  const fire = (type: string, event: unknown) => listeners[type]?.forEach((listener) => listener(event));
  return { state, storage, appended, fire };
}

const failedImport = { error: new TypeError('Failed to fetch dynamically imported module: /assets/genre-x.js') };

describe('the inline chunk reload guard', () => {
  it('reloads once for a failed module fetch, then shows the message with a reload button', () => {
    const page = fakeWindow(1_000_000);
    page.fire('error', failedImport);
    expect(page.state.reloads).toBe(1);
    expect(JSON.parse(page.storage.get(CHUNK_RELOAD_STORAGE_KEY)!)).toEqual({ '/gacha/pokemon': 1_000_000 });
    // the reloaded page fails again within 10 s: no second reload, the dialog instead
    page.state.now += 9_000;
    page.fire('unhandledrejection', { reason: failedImport.error });
    expect(page.state.reloads).toBe(1);
    expect(page.appended).toHaveLength(1);
    expect(page.appended[0]!.attributes.role).toBe('alertdialog');
    expect(page.appended[0]!.innerHTML).toContain('ページを読み込めませんでした');
    expect(page.appended[0]!.innerHTML).toContain('再読み込み');
    // more than 10 s later it may reload again
    page.state.now += 2_000;
    page.fire('error', failedImport);
    expect(page.state.reloads).toBe(2);
  });

  it('leaves other errors, and a page whose app is running, alone', () => {
    const page = fakeWindow(1_000_000);
    page.fire('error', { error: new TypeError('x is undefined') });
    page.fire('unhandledrejection', { reason: 'nope' });
    expect([page.state.reloads, page.appended.length]).toEqual([0, 0]);
    const running = fakeWindow(1_000_000, true);
    running.fire('error', failedImport);
    expect([running.state.reloads, running.appended.length]).toEqual([0, 0]);
  });
});
