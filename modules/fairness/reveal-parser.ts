// The reveal file's parser (browser-safe, like format.ts): its shape, field by field, in Japanese; its truth is
// the checks' job (reveal-checks.ts). Formats: docs/formats/reveal-formats.md.
import {
  REVEAL_FORMAT,
  REVEAL_FORMAT_CEILING,
  REVEAL_FORMAT_EXTRAS,
  REVEAL_FORMAT_KIRIBAN,
  type PackReveal,
} from './format';

export type ParseResult = { ok: true; reveal: PackReveal } | { ok: false; errors: string[] };

/**
 * Checks the reveal file's shape (types and field names, not its truth: that is verifyReveal's job).
 * Errors are Japanese, each naming the field; at most 20 are listed.
 * @example const parsed = parsePackReveal(JSON.parse(text)); if (!parsed.ok) console.error(parsed.errors.join('\n'));
 */
export function parsePackReveal(value: unknown): ParseResult {
  const errors: string[] = [];
  const fail = (path: string, message: string) => {
    if (errors.length < 20) errors.push(`${path}: ${message}`);
    else if (errors.length === 20) errors.push('…（以降は省略）');
  };
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const string = (v: unknown, path: string) => typeof v === 'string' || fail(path, '文字列ではありません');
  const integer = (v: unknown, path: string) => Number.isSafeInteger(v) || fail(path, '整数ではありません');
  const boolean = (v: unknown, path: string) => typeof v === 'boolean' || fail(path, '真偽値ではありません');

  if (!isObject(value)) return { ok: false, errors: ['ファイルの中身が JSON オブジェクトではありません'] };
  const formats: unknown[] = [REVEAL_FORMAT, REVEAL_FORMAT_KIRIBAN, REVEAL_FORMAT_EXTRAS, REVEAL_FORMAT_CEILING];
  if (!formats.includes(value.format)) {
    return {
      ok: false,
      errors: [
        `format: ${formats.map((f) => `"${f}"`).join('、')} のどれでもありません（${JSON.stringify(value.format) ?? 'なし'}）`,
      ],
    };
  }
  const v4 = value.format === REVEAL_FORMAT_CEILING;
  const v3 = v4 || value.format === REVEAL_FORMAT_EXTRAS;
  const v2 = v3 || value.format === REVEAL_FORMAT_KIRIBAN;
  const strings = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((n: unknown, k) => string(n, `${path}[${k}]`));
    else fail(path, '配列ではありません');
  };
  const integers = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((n: unknown, k) => integer(n, `${path}[${k}]`));
    else fail(path, '配列ではありません');
  };
  if (isObject(value.gacha)) {
    string(value.gacha.id, 'gacha.id');
    string(value.gacha.title, 'gacha.title');
    integer(value.gacha.pricePerDraw, 'gacha.pricePerDraw');
    integer(value.gacha.totalLots, 'gacha.totalLots');
  } else fail('gacha', 'オブジェクトではありません');
  if (Array.isArray(value.tiers)) {
    value.tiers.forEach((tier: unknown, i) => {
      const path = `tiers[${i}]`;
      if (!isObject(tier)) return fail(path, 'オブジェクトではありません');
      string(tier.id, `${path}.id`);
      string(tier.label, `${path}.label`);
      string(tier.cardName, `${path}.cardName`);
      integer(tier.quantity, `${path}.quantity`);
      integer(tier.conversionValue, `${path}.conversionValue`);
      boolean(tier.isLastOne, `${path}.isLastOne`);
      if (tier.kiribanAt !== undefined) {
        if (v2) integers(tier.kiribanAt, `${path}.kiribanAt`);
        else fail(`${path}.kiribanAt`, `キリ番は "${REVEAL_FORMAT_KIRIBAN}" の項目です`);
      }
      if (tier.personalKiribanAt !== undefined) {
        if (v3) integers(tier.personalKiribanAt, `${path}.personalKiribanAt`);
        else fail(`${path}.personalKiribanAt`, `個人キリ番は "${REVEAL_FORMAT_EXTRAS}" の項目です`);
      }
      if (tier.pitariOf !== undefined) {
        if (v3) string(tier.pitariOf, `${path}.pitariOf`);
        else fail(`${path}.pitariOf`, `ピタリ賞は "${REVEAL_FORMAT_EXTRAS}" の項目です`);
      }
      if (tier.ceilingAfter !== undefined) {
        if (v4) integer(tier.ceilingAfter, `${path}.ceilingAfter`);
        else fail(`${path}.ceilingAfter`, `天井賞は "${REVEAL_FORMAT_CEILING}" の項目です`);
      }
      if (tier.ceilingOf !== undefined) {
        if (v4) strings(tier.ceilingOf, `${path}.ceilingOf`);
        else fail(`${path}.ceilingOf`, `天井賞は "${REVEAL_FORMAT_CEILING}" の項目です`);
      }
    });
  } else fail('tiers', '配列ではありません');
  string(value.commitment, 'commitment');
  string(value.committedAt, 'committedAt');
  string(value.seed, 'seed');
  string(value.revealedAt, 'revealedAt');
  if (Array.isArray(value.lots)) {
    for (let i = 0; i < value.lots.length; i += 1) string(value.lots[i], `lots[${i}]`);
  } else fail('lots', '配列ではありません');
  if (Array.isArray(value.draws)) {
    value.draws.forEach((draw: unknown, i) => {
      const path = `draws[${i}]`;
      if (!isObject(draw)) return fail(path, 'オブジェクトではありません');
      integer(draw.drawNo, `${path}.drawNo`);
      string(draw.at, `${path}.at`);
      string(draw.member, `${path}.member`);
      boolean(draw.lastOne, `${path}.lastOne`);
      if (v2) integers(draw.kiriban, `${path}.kiriban`);
      else if (draw.kiriban !== undefined) fail(`${path}.kiriban`, `キリ番は "${REVEAL_FORMAT_KIRIBAN}" の項目です`);
      if (v3) {
        integers(draw.personalKiriban, `${path}.personalKiriban`);
        strings(draw.pitari, `${path}.pitari`);
      } else {
        if (draw.personalKiriban !== undefined)
          fail(`${path}.personalKiriban`, `個人キリ番は "${REVEAL_FORMAT_EXTRAS}" の項目です`);
        if (draw.pitari !== undefined) fail(`${path}.pitari`, `ピタリ賞は "${REVEAL_FORMAT_EXTRAS}" の項目です`);
      }
      if (v4) integer(draw.ceiling, `${path}.ceiling`);
      else if (draw.ceiling !== undefined) fail(`${path}.ceiling`, `天井賞は "${REVEAL_FORMAT_CEILING}" の項目です`);
      if (Array.isArray(draw.positions))
        draw.positions.forEach((p: unknown, k) => integer(p, `${path}.positions[${k}]`));
      else fail(`${path}.positions`, '配列ではありません');
    });
  } else fail('draws', '配列ではありません');
  // The label and the content agree: /2 is the file of a pack with キリ番, and only of one (a /1 file cannot
  // carry kiribanAt, above). So the label alone names the commitment document: /1 → v1, /2 → v2.
  // /3 likewise is the file of a pack with a 個人キリ番賞 or ピタリ賞, and only of one: /3 → v3; and /4 of a
  // pack with a 天井賞 (a tier whose ceilingAfter is positive), and only of one: /4 → v4.
  if (
    v4 &&
    Array.isArray(value.tiers) &&
    !value.tiers.some((tier) => isObject(tier) && typeof tier.ceilingAfter === 'number' && tier.ceilingAfter > 0)
  ) {
    fail('format', `"${REVEAL_FORMAT_CEILING}" は天井賞のある口の形式です`);
  }
  if (
    v3 &&
    !v4 &&
    Array.isArray(value.tiers) &&
    !value.tiers.some(
      (tier) =>
        isObject(tier) &&
        ((Array.isArray(tier.personalKiribanAt) && tier.personalKiribanAt.length > 0) ||
          (typeof tier.pitariOf === 'string' && tier.pitariOf.length > 0)),
    )
  ) {
    fail('format', `"${REVEAL_FORMAT_EXTRAS}" は個人キリ番賞かピタリ賞のある口の形式です`);
  }
  if (
    v2 &&
    !v3 &&
    Array.isArray(value.tiers) &&
    !value.tiers.some((tier) => isObject(tier) && Array.isArray(tier.kiribanAt) && tier.kiribanAt.length > 0)
  ) {
    fail('format', `"${REVEAL_FORMAT_KIRIBAN}" はキリ番賞のある口の形式です（キリ番のない口は "${REVEAL_FORMAT}"）`);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, reveal: value as unknown as PackReveal };
}
