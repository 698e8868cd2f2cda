// The certificate rules (issue 33 item 8) as pure functions: a grade's company, a certificate number as
// printed, which tiers need proof, and the Japanese problems that hold a pack back; the tier row's refusals.
import { describe, expect, it } from 'vitest';
import {
  certificateNumberSchema,
  certificateProblems,
  gradeCompanyOf,
  needsCertificate,
  packTiersSchema,
  type TierRow,
} from './index';

const photo = { sha256: 'a'.repeat(64), originalPath: `/media/originals/${'a'.repeat(64)}.jpg` };
const s = {
  label: 'S賞',
  cardName: 'リザードン SAR',
  cardGrade: 'PSA10',
  quantity: 1,
  conversionValue: 50_000,
  certificateCompany: 'PSA',
  certificateNumber: '12345678',
  photo,
};

function row(over: Partial<TierRow>): TierRow {
  return {
    key: 't1',
    kind: 'regular',
    label: 'S賞',
    effect: 'rainbow',
    cardName: 'リザードン SAR',
    cardSet: '',
    cardNumber: '',
    rarity: '',
    gradeCompany: 'PSA',
    gradeValue: '10',
    cardCondition: '',
    certificateNumber: '',
    cardImagePath: '',
    quantity: 1,
    conversionValue: 50_000,
    cardCostYen: null,
    kiribanAt: [],
    personalKiribanAt: [],
    pitariOf: '',
    ceilingAfter: null,
    ceilingFrom: '',
    ...over,
  };
}

describe('certificates', () => {
  it('reads the company of a grade, and none of an ungraded card', () => {
    expect(gradeCompanyOf('PSA10')).toBe('PSA');
    expect(gradeCompanyOf('BGS 9.5')).toBe('BGS');
    expect(gradeCompanyOf('ARS10')).toBe('ARS');
    expect(gradeCompanyOf('PSA')).toBeNull();
    expect(gradeCompanyOf('CGC10')).toBeNull();
    expect(gradeCompanyOf(null)).toBeNull();
  });

  it('takes a certificate number as printed: half-width, upper case, letters and digits', () => {
    expect(certificateNumberSchema.parse(' １２３４５６７８ ')).toBe('12345678');
    expect(certificateNumberSchema.parse('0012345678')).toBe('0012345678');
    expect(certificateNumberSchema.parse('ab-1234')).toBe('AB-1234');
    expect(certificateNumberSchema.parse('')).toBe('');
    for (const bad of ['123', '#12345678', '1234 5678', '-1234', '鑑定12345678', '1'.repeat(31)])
      expect(certificateNumberSchema.safeParse(bad).error?.issues[0]?.message, bad).toMatch(/^鑑定番号は鑑定書/);
  });

  it('asks proof of a graded card at or above the setting only', () => {
    expect(needsCertificate({ cardGrade: 'PSA10', conversionValue: 10_000 }, 10_000)).toBe(true);
    expect(needsCertificate({ cardGrade: 'PSA10', conversionValue: 9_999 }, 10_000)).toBe(false);
    expect(needsCertificate({ cardGrade: null, conversionValue: 1_000_000 }, 10_000)).toBe(false);
    expect(needsCertificate({ cardGrade: 'BGS9.5', conversionValue: 1 }, 0)).toBe(true);
  });

  it('says what holds a pack back, tier by tier, in Japanese', () => {
    expect(certificateProblems([s], 10_000)).toEqual([]);
    expect(
      certificateProblems([{ ...s, certificateCompany: null, certificateNumber: null, photo: null }], 10_000),
    ).toEqual([
      'S賞（リザードン SAR PSA10）: 鑑定番号を入力してください（「賞」の段階）。',
      'S賞（リザードン SAR PSA10）: カードの写真を登録してください（「画像」の段階。鑑定品の写真は原本のまま保存します）。',
    ]);
    // Below the setting, or ungraded: nothing is asked.
    expect(certificateProblems([{ ...s, certificateNumber: null, photo: null }], 60_000)).toEqual([]);
    expect(certificateProblems([{ ...s, cardGrade: null, certificateNumber: null, photo: null }], 0)).toEqual([]);
    // A certificate names one card.
    expect(certificateProblems([{ ...s, quantity: 3 }], 10_000)).toEqual([
      'S賞（リザードン SAR PSA10）: 鑑定書は1枚ごとに違うため、証明の必要な鑑定品は1枚ずつ別の賞にしてください（今は3枚）。',
    ]);
    expect(certificateProblems([s, { ...s, label: 'A賞' }], 10_000)).toEqual([
      'PSA 鑑定番号 12345678 がS賞とA賞の両方に入力されています。鑑定番号は1枚ごとに違います。',
    ]);
  });

  it('refuses a certificate number on an ungraded card, on several cards, or written wrong', () => {
    const parsed = packTiersSchema.safeParse([
      row({ key: 't1', gradeCompany: '', gradeValue: '', certificateNumber: '12345678' }),
      row({ key: 't2', quantity: 2, certificateNumber: '12345679' }),
      row({ key: 't3', kind: 'kiriban', kiribanAt: [5, 10], certificateNumber: '12345680' }),
      row({ key: 't4', certificateNumber: 'No.1234' }),
    ]);
    const byPath = Object.fromEntries(parsed.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byPath['0.certificateNumber']).toBe('鑑定番号は鑑定会社を選んだ賞（鑑定品）にだけ入力できます。');
    expect(byPath['1.certificateNumber']).toMatch(/^鑑定番号は1枚のカードのものです。/);
    expect(byPath['2.certificateNumber']).toMatch(/^鑑定番号は1枚のカードのものです。/);
    expect(byPath['3.certificateNumber']).toMatch(/^鑑定番号は鑑定書（ケースのラベル）に印刷された英数字/);
    const ok = packTiersSchema.parse([
      row({ certificateNumber: '１２３４５６７８' }),
      row({ key: 't2', kind: 'lastone', certificateNumber: '87654321' }),
    ]);
    expect(ok.map((r) => r.certificateNumber)).toEqual(['12345678', '87654321']);
  });
});
