// Address text as members type it: postal codes in any width and dash, フリガナ in katakana, street numbers.
import { describe, expect, it } from 'vitest';
import {
  PREFECTURES,
  formatPostalCode,
  isPrefecture,
  normalizeAddressText,
  normalizeStreetText,
  readPostalCode,
  toKatakana,
} from './address-text';

describe('readPostalCode', () => {
  it.each([
    ['1000001', '1000001'],
    ['100-0001', '1000001'],
    ['〒100-0001', '1000001'],
    ['〒 100-0001 ', '1000001'],
    ['１００－０００１', '1000001'],
    ['１００ー０００１', '1000001'],
    ['100‐0001', '1000001'],
    ['100−0001', '1000001'],
    ['100ｰ0001', '1000001'],
    ['100 0001', '1000001'],
    ['100　0001', '1000001'],
    ['〒１００００１', null],
    ['10000011', null],
    ['100-000a', null],
    ['', null],
    ['一〇〇〇〇〇一', null],
  ])('%j → %j', (typed, digits) => {
    expect(readPostalCode(typed)).toBe(digits);
  });

  it('writes 7 digits as members read them', () => {
    expect(formatPostalCode('1000001')).toBe('100-0001');
  });
});

describe('toKatakana', () => {
  it.each([
    ['やまだ たろう', 'ヤマダ タロウ'],
    ['ﾔﾏﾀﾞ ﾀﾛｳ', 'ヤマダ タロウ'],
    ['ヤマダ　タロウ', 'ヤマダ タロウ'],
    ['  ヤマダ　　 タロウ ', 'ヤマダ タロウ'],
    ['すずき ゆーこ', 'スズキ ユーコ'],
    ['ゔぁいおりん', 'ヴァイオリン'],
  ])('%j → %j', (typed, kana) => {
    expect(toKatakana(typed)).toBe(kana);
  });
});

describe('normalizeAddressText and normalizeStreetText', () => {
  it('makes full-width letters and digits half-width and spaces single', () => {
    expect(normalizeAddressText('　千代田区　　丸の内 ')).toBe('千代田区 丸の内');
    expect(normalizeAddressText('ＡＢＣビル\u200b')).toBe('ABCビル');
    expect(normalizeAddressText('a\u0000b\tc')).toBe('ab c');
  });

  it('writes a dash between digits as -, but keeps ー in words', () => {
    expect(normalizeStreetText('丸の内１ー２－３')).toBe('丸の内1-2-3');
    expect(normalizeStreetText('1―2 − 3')).toBe('1-2-3');
    expect(normalizeStreetText('メゾンルーム 101')).toBe('メゾンルーム 101');
    expect(normalizeStreetText('コーポ２０１')).toBe('コーポ201');
  });
});

describe('PREFECTURES', () => {
  it('has the 47 prefectures, each once, in JIS order', () => {
    expect(PREFECTURES).toHaveLength(47);
    expect(new Set(PREFECTURES).size).toBe(47);
    expect(PREFECTURES[0]).toBe('北海道');
    expect(PREFECTURES[12]).toBe('東京都');
    expect(PREFECTURES[46]).toBe('沖縄県');
    expect(isPrefecture('京都府')).toBe(true);
    expect(isPrefecture('東京')).toBe(false);
  });
});
