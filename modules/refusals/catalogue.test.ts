// The refusal catalogue: every code any module exports has a status and a Japanese message, each
// module's words (its refusal-words.ts, at its door) are the ones gathered, and the words clients see are
// the ones they saw before the catalogue (docs/api.md, tests/http; docs/decisions/064).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RefusalEntry, RefusalWords } from '#modules/kernel';
import { REFUSAL_CATALOGUE, describeRefusal, type RefusalCode } from './catalogue';

/** Every module with a door (modules/<name>/index.ts), so a new module is checked without a list to update. */
const MODULES_DIR = path.resolve(import.meta.dirname, '..');
const moduleNames = fs
  .readdirSync(MODULES_DIR)
  .filter((name) => fs.existsSync(path.join(MODULES_DIR, name, 'index.ts')));

/** A module's named second doors (package.json imports, e.g. '#modules/identity/server'). */
const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  imports: Record<string, string>;
};
const secondDoors = Object.keys(packageJson.imports).filter((key) => /^#modules\/[^/*]+\/[^*]+$/.test(key));

/** Every module door and named second door. */
async function doors(): Promise<[string, Record<string, unknown>][]> {
  expect(moduleNames.length).toBeGreaterThanOrEqual(9);
  const all: [string, Record<string, unknown>][] = [];
  for (const name of [...moduleNames.map((m) => `#modules/${m}`), ...secondDoors])
    all.push([name, (await import(/* @vite-ignore */ name)) as Record<string, unknown>]);
  return all;
}

/** Every `*_REFUSAL_CODES` array exported by every module's doors. */
async function exportedRefusalCodes(): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (const [name, door] of await doors()) {
    for (const [exported, value] of Object.entries(door)) {
      if (!exported.endsWith('REFUSAL_CODES')) continue;
      expect(Array.isArray(value), `${name}.${exported}`).toBe(true);
      for (const code of value as string[]) codes.set(code, `${name}.${exported}`);
    }
  }
  return codes;
}

/** Every `*_REFUSAL_WORDS` section exported by every module's doors (a module's words beside its code). */
async function exportedRefusalWords(): Promise<Map<string, Record<string, RefusalEntry>>> {
  const sections = new Map<string, Record<string, RefusalEntry>>();
  for (const [name, door] of await doors()) {
    for (const [exported, value] of Object.entries(door)) {
      if (!exported.endsWith('REFUSAL_WORDS')) continue;
      expect(typeof value, `${name}.${exported}`).toBe('object');
      sections.set(`${name}.${exported}`, value as Record<string, RefusalEntry>);
    }
  }
  return sections;
}

const japanese = /[ぁ-んァ-ン一-龥]/;

describe('refusal catalogue', () => {
  it('has an entry with an error status and a Japanese message for every code a module exports', async () => {
    const codes = await exportedRefusalCodes();
    // draw, prize choices, draw/gacha look-ups and idempotency at least.
    expect(codes.size).toBeGreaterThanOrEqual(19);
    for (const [code, from] of codes) {
      const entry = REFUSAL_CATALOGUE[code as RefusalCode];
      expect(entry, `${code} (${from}) has no entry in modules/refusals`).toBeDefined();
      const { status, message } = describeRefusal({ ok: false, code: code as RefusalCode, details: {} });
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(message, code).toMatch(japanese);
    }
  });

  it('has no entry for a code no module exports (a stale entry hides a renamed code)', async () => {
    const codes = await exportedRefusalCodes();
    for (const code of Object.keys(REFUSAL_CATALOGUE)) expect(codes.has(code), code).toBe(true);
  });

  it("gathers each module's words as the module states them: every section's entries, error statuses, Japanese", async () => {
    const sections = await exportedRefusalWords();
    // The kernel's shared words and at least one section per module with refusal codes.
    expect(sections.size).toBeGreaterThanOrEqual(30);
    const worded = new Set<string>();
    for (const [from, section] of sections) {
      expect(Object.keys(section).length, from).toBeGreaterThan(0);
      for (const [code, entry] of Object.entries(section)) {
        expect(REFUSAL_CATALOGUE[code as RefusalCode], `${code} (${from})`).toBe(entry);
        expect(entry.status, code).toBeGreaterThanOrEqual(400);
        expect(entry.status, code).toBeLessThan(600);
        const message = typeof entry.message === 'function' ? entry.message({}) : entry.message;
        expect(message, code).toMatch(japanese);
        worded.add(code);
      }
    }
    // No entry of the catalogue comes from anywhere but a module's words.
    expect([...worded].sort()).toEqual(Object.keys(REFUSAL_CATALOGUE).sort());
  });

  it('makes a missing code a type error (npm run typecheck reads this test)', () => {
    const words: RefusalWords<'SOLD_OUT'> = { SOLD_OUT: { status: 409, message: 'このガチャは完売しました。' } };
    // @ts-expect-error: RANK_TOO_LOW has no words, so the section does not compile.
    const missing: RefusalWords<'SOLD_OUT' | 'RANK_TOO_LOW'> = { SOLD_OUT: words.SOLD_OUT };
    expect(Object.keys(missing)).toEqual(['SOLD_OUT']);
  });

  it('answers the statuses and messages clients saw before (describeDrawRefusal and the prize choices)', () => {
    const said = (code: RefusalCode, details: Record<string, unknown> = {}) => {
      const { status, message } = describeRefusal({ ok: false, code, details });
      return [status, message];
    };
    expect(said('GACHA_NOT_FOUND')).toEqual([404, 'ガチャが見つかりません。']);
    expect(said('UNAUTHENTICATED')).toEqual([401, 'ログインしてください。']);
    expect(said('STAFF_CANNOT_DRAW')).toEqual([403, 'スタッフアカウントではガチャを引けません。']);
    expect(said('DRAW_COUNT_INVALID')).toEqual([400, 'このガチャでは選べない回数です。']);
    expect(said('IDEMPOTENCY_KEY_REUSED')).toEqual([
      409,
      '同じリクエストキーが別の内容で使われています。新しいキーでやり直してください。',
    ]);
    expect(said('SOLD_OUT')).toEqual([409, 'このガチャは完売しました。']);
    expect(said('NOT_ENOUGH_LOTS', { remaining: 1234 })).toEqual([
      409,
      '残り口数が足りません（残り1,234口）。残りの口数以下でお試しください。',
    ]);
    expect(said('GACHA_ENDED')).toEqual([422, 'このガチャの販売は終了しました。']);
    expect(said('GACHA_NOT_ON_SALE')).toEqual([422, 'このガチャはまだ販売開始前です。']);
    expect(said('RANK_TOO_LOW')).toEqual([403, 'このガチャは対象ランク以上の会員様限定です。']);
    expect(said('INSUFFICIENT_COINS', { required: 5000, balance: 120 })).toEqual([
      422,
      'コインが不足しています（必要 5,000コイン／所持 120コイン）。',
    ]);
    expect(said('DRAW_LIMIT_REACHED', { limit: 10, used: 10 })).toEqual([
      422,
      'このガチャはお一人様10口までです（購入済み 10口）。',
    ]);
    expect(said('DRAW_BUSY')).toEqual([409, 'ただいま混み合っています。少し待ってからもう一度お試しください。']);
    expect(describeRefusal({ ok: false, code: 'DRAW_BUSY', details: {} }).headers).toEqual({ 'Retry-After': '1' });
    expect(said('PRIZE_NOT_FOUND')).toEqual([404, '対象のカードが見つかりません。']);
    expect(said('PRIZE_ALREADY_DECIDED')).toEqual([
      409,
      'すでにコイン交換または発送手続き済みのカードが含まれています。',
    ]);
    expect(said('PRIZE_KEPT')).toEqual([
      409,
      '発送用に保管中のカードが含まれています。保管中のカードは1枚ずつ確認してから交換してください。',
    ]);
    expect(said('DRAW_NOT_FOUND')).toEqual([404, '抽選結果が見つかりません。']);
    expect(said('NOT_REVEALED_YET')).toEqual([409, 'シードと抽選ログは完売または販売終了後に公開されます。']);
    expect(said('GENRE_NOT_FOUND')).toEqual([404, 'ジャンルが見つかりません。']);
  });

  it("words the operator command's refusals as the command did, naming the pack, genre or key", () => {
    const said = (code: RefusalCode, details: Record<string, unknown>) =>
      describeRefusal({ ok: false, code, details }).message;
    expect(said('GENRE_NOT_FOUND', { genreId: 'yugioh' })).toBe('ジャンル yugioh がありません。');
    expect(said('GACHA_EXISTS', { gachaId: 'p-1' })).toBe('ガチャ p-1 は既にあります。');
    expect(said('GACHA_NOT_FOUND', { gachaId: 'p-1' })).toBe('ガチャ p-1 がありません。');
    expect(said('ALREADY_PUBLISHED', { gachaId: 'p-1' })).toBe('ガチャ p-1 は公開済みです。');
    expect(said('LOTS_MISMATCH', { gachaId: 'p-1' })).toBe('賞の数量と総口数が一致しません。');
    expect(said('NOT_PUBLISHED', { gachaId: 'p-1' })).toBe('下書きのガチャは終了できません。削除してください。');
    expect(said('INVALID_RETURN_URL', { url: 'https://evil.example/' })).toBe(
      '戻り先のURLが正しくありません: https://evil.example/',
    );
    expect(said('LINK_FAILED', { status: 500 })).toBe('LINE連携を開始できませんでした (500)');
    expect(said('LINK_FAILED', {})).toBe('LINE連携を開始できませんでした');
    expect(said('ALREADY_LINKED', {})).toBe('LINEアカウントは連携済みです。');
    expect(said('NOT_CONFIGURED', {})).toBe('LINE連携は現在ご利用いただけません。');
    expect(said('GRANT_KEY_REUSED', { key: 'ops:k1' })).toBe(
      'キー ops:k1 は別の付与（会員・種類・枚数が違う）に使われています。何も付与していません。',
    );
  });

  it("answers another member's address as not found (never forbidden), and explains the book's limit", () => {
    const said = (code: RefusalCode, details: Record<string, unknown> = {}) => {
      const { status, message } = describeRefusal({ ok: false, code, details });
      return [status, message];
    };
    expect(said('ADDRESS_NOT_FOUND')).toEqual([404, '住所が見つかりません。']);
    expect(said('ADDRESS_LIMIT_REACHED', { limit: 5 })).toEqual([
      422,
      '登録できる住所は5件までです。使わない住所を削除してから追加してください。',
    ]);
    expect(said('POSTAL_CODE_INVALID')[0]).toBe(400);
    expect(said('POSTAL_CODE_NOT_FOUND')[0]).toBe(404);
  });

  it('passes the details through, so a page and the API can show the numbers', () => {
    const described = describeRefusal({ ok: false, code: 'NOT_ENOUGH_LOTS', details: { remaining: 3 } });
    expect(described).toMatchObject({ code: 'NOT_ENOUGH_LOTS', details: { remaining: 3 } });
  });
});
