// The desk's CSV files: shipped rows read with per-row Japanese errors or refused whole, and the label batch written safely for spreadsheets.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, testSettings } from '#tests/settings';
import { LABEL_CSV_COLUMNS, readShippedCsv, writeLabelCsv, type LabelCsvRequest } from './shipping-csv';

const LIMITS = { maxBytes: 64 * 1024, maxRows: 100 };
const HEADER = 'request_id,carrier,tracking_number';
const ID1 = '3f1c2b7a-9d4e-4c1a-8b2f-0a1b2c3d4e5f';
const ID2 = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
const ID3 = 'b1e2d3c4-a5f6-4789-8abc-def012345678';

const csv = (...lines: string[]) => lines.join('\n') + '\n';
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('readShippedCsv: good files', () => {
  it('reads codes and Japanese names, full-width digits and hyphens, with the line of each row', () => {
    const result = readShippedCsv(
      csv(
        HEADER,
        `${ID1},yamato,1234-5678-9012`,
        `${ID2},佐川急便,１２３４５６７８９０`,
        `${ID3.toUpperCase()},日本郵便,ej123456789jp`,
      ),
      LIMITS,
    );
    expect(result).toEqual({
      ok: true,
      rows: [
        { line: 2, requestId: ID1, carrier: 'yamato', trackingNumber: '123456789012' },
        { line: 3, requestId: ID2, carrier: 'sagawa', trackingNumber: '1234567890' },
        { line: 4, requestId: ID3, carrier: 'japanpost', trackingNumber: 'EJ123456789JP' },
      ],
      errors: [],
    });
  });

  it('reads UTF-8 with a BOM and CRLF line ends, as bytes and as text; lines count empty lines', () => {
    const text = `\uFEFF${HEADER}\r\n\r\n${ID1},ヤマト運輸,123456789012\r\n`;
    const expected = {
      ok: true,
      rows: [{ line: 3, requestId: ID1, carrier: 'yamato', trackingNumber: '123456789012' }],
      errors: [],
    };
    expect(readShippedCsv(utf8(text), LIMITS)).toEqual(expected);
    expect(readShippedCsv(text, LIMITS)).toEqual(expected);
  });

  it('reads Shift_JIS, what Excel on Japanese Windows saves', () => {
    // ヤマト運輸 in Shift_JIS; the decoder's own reading is checked first, so the fixture cannot be wrong silently.
    const yamatoSjis = [0x83, 0x84, 0x83, 0x7d, 0x83, 0x67, 0x89, 0x5e, 0x97, 0x41];
    expect(new TextDecoder('shift_jis').decode(new Uint8Array(yamatoSjis))).toBe('ヤマト運輸');
    const bytes = new Uint8Array([...utf8(`${HEADER}\r\n${ID1},`), ...yamatoSjis, ...utf8(',123456789012\r\n')]);
    expect(readShippedCsv(bytes, LIMITS)).toEqual({
      ok: true,
      rows: [{ line: 2, requestId: ID1, carrier: 'yamato', trackingNumber: '123456789012' }],
      errors: [],
    });
  });

  it('takes the columns in any order, quoted values, and Excel’s trailing commas and comma-only rows', () => {
    const result = readShippedCsv(
      csv(
        'Tracking_Number, carrier ,REQUEST_ID,',
        `"1234-5678-9012","yamato","${ID1}",`,
        ',,,',
        `123456789012,sagawa,${ID2}`,
      ),
      LIMITS,
    );
    expect(result).toEqual({
      ok: true,
      rows: [
        { line: 2, requestId: ID1, carrier: 'yamato', trackingNumber: '123456789012' },
        { line: 4, requestId: ID2, carrier: 'sagawa', trackingNumber: '123456789012' },
      ],
      errors: [],
    });
  });
});

describe('readShippedCsv: rows with errors', () => {
  it('reports every fault of every row in Japanese, with its line and column, and keeps the good rows', () => {
    const result = readShippedCsv(
      csv(
        HEADER,
        `${ID1},yamato,EJ123456789JP`, // 2: Japan Post's format for Yamato
        `not-a-uuid,fedex,123`, // 3: two faults
        `${ID2},sagawa,123456789012`, // 4: good
        `${ID2},sagawa,123456789012`, // 5: the same request again
        `${ID3},japanpost`, // 6: a field missing
        `,yamato,`, // 7: no id, no number
        `${ID3},japanpost,12345678901,extra`, // 8: a field too many
      ),
      LIMITS,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rows).toEqual([{ line: 4, requestId: ID2, carrier: 'sagawa', trackingNumber: '123456789012' }]);
    expect(result.errors).toEqual([
      {
        line: 2,
        column: 'tracking_number',
        code: 'TRACKING_NUMBER_FORMAT',
        message:
          'ヤマト運輸の送り状番号は12桁の数字です（ハイフンは省略できます）。入力された番号は日本郵便の形式です。運送会社をご確認ください。',
      },
      {
        line: 3,
        column: 'request_id',
        code: 'REQUEST_ID_INVALID',
        message: '依頼ID（request_id）の形式が正しくありません（発送依頼のIDを書いてください）。',
      },
      {
        line: 3,
        column: 'carrier',
        code: 'CARRIER_UNKNOWN',
        message:
          '運送会社（carrier）「fedex」は扱っていません。yamato（ヤマト運輸）、sagawa（佐川急便）、japanpost（日本郵便）のいずれかを書いてください。',
      },
      {
        line: 5,
        column: 'request_id',
        code: 'REQUEST_ID_DUPLICATE',
        message: '同じ依頼IDが4行目にもあります。1つの依頼は1行にしてください。',
      },
      { line: 6, code: 'ROW_COLUMN_COUNT', message: '列の数が見出しと合いません（見出しは3列、この行は2列です）。' },
      { line: 7, column: 'request_id', code: 'REQUEST_ID_INVALID', message: '依頼ID（request_id）がありません。' },
      {
        line: 7,
        column: 'tracking_number',
        code: 'TRACKING_NUMBER_REQUIRED',
        message: '送り状番号を入力してください。',
      },
      { line: 8, code: 'ROW_COLUMN_COUNT', message: '列の数が見出しと合いません（見出しは3列、この行は4列です）。' },
    ]);
  });

  it('numbers a row by the line it starts on when a quoted value spans lines', () => {
    const result = readShippedCsv(csv(HEADER, `${ID1},"fed\nex",123456789012`, `${ID2},ヤマト,123456789012`), LIMITS);
    expect(result.ok && result.errors.map((error) => [error.line, error.code])).toEqual([[2, 'CARRIER_UNKNOWN']]);
    expect(result.ok && result.rows.map((row) => row.line)).toEqual([4]);
  });
});

describe('readShippedCsv: files refused whole', () => {
  it('refuses a file over the byte limit before reading it', () => {
    const huge = HEADER + '\n' + `${ID1},yamato,123456789012\n`.repeat(200_000); // about 9 MB
    const result = readShippedCsv(huge, { maxBytes: 1024 * 1024, maxRows: 1_000_000 });
    expect(result).toEqual({
      ok: false,
      code: 'CSV_TOO_LARGE',
      message: 'ファイルが大きすぎます（上限は1MBです）。ファイルを分けて取り込んでください。',
    });
    // Measured in bytes as uploaded: 3 bytes per kana in UTF-8.
    expect(readShippedCsv(utf8(`${HEADER}\nヤマト`), { maxBytes: 40, maxRows: 10 })).toMatchObject({
      code: 'CSV_TOO_LARGE',
    });
  });

  it('refuses more rows than the limit', () => {
    const rows = [ID1, ID2, ID3].map((id) => `${id},yamato,123456789012`);
    expect(readShippedCsv(csv(HEADER, ...rows), { maxBytes: LIMITS.maxBytes, maxRows: 2 })).toEqual({
      ok: false,
      code: 'CSV_TOO_MANY_ROWS',
      message: '行が多すぎます（3行、上限は2行です）。ファイルを分けて取り込んでください。',
    });
    expect(readShippedCsv(csv(HEADER, ...rows), { maxBytes: LIMITS.maxBytes, maxRows: 3 }).ok).toBe(true);
  });

  it.each([
    ['a missing column', 'request_id,tracking_number', '見出しに列がありません: carrier。'],
    ['an unknown column', `${HEADER},memo`, '見出しに不明な列があります: memo。'],
    ['a repeated column', `${HEADER},carrier`, '見出しの列が重複しています: carrier。'],
    [
      'no header (data first)',
      `${ID1},yamato,123456789012`,
      '見出しに列がありません: request_id、carrier、tracking_number。',
    ],
  ])('refuses %s in the header', (_name, header, message) => {
    expect(readShippedCsv(csv(header, `${ID2},yamato,123456789012`), LIMITS)).toEqual({
      ok: false,
      code: 'CSV_HEADER',
      message: `${message}1行目は見出し「request_id,carrier,tracking_number」にしてください。`,
      line: 1,
    });
  });

  it('refuses an empty file and a header without rows', () => {
    expect(readShippedCsv('', LIMITS)).toMatchObject({
      ok: false,
      code: 'CSV_HEADER',
      message: expect.stringMatching(/^ファイルが空です。/),
    });
    expect(readShippedCsv(utf8('\uFEFF\r\n'), LIMITS)).toMatchObject({ ok: false, code: 'CSV_HEADER' });
    expect(readShippedCsv(csv(HEADER), LIMITS)).toEqual({
      ok: false,
      code: 'CSV_NO_ROWS',
      message: '取り込む行がありません（見出しの行だけです）。',
    });
  });

  it('refuses bytes that are neither UTF-8 nor Shift_JIS', () => {
    expect(readShippedCsv(new Uint8Array([...utf8(`${HEADER}\n`), 0xff, 0xfe, 0xfd, 0x0a]), LIMITS)).toEqual({
      ok: false,
      code: 'CSV_ENCODING',
      message: 'ファイルの文字コードを読み取れません。UTF-8またはShift_JISのCSVで保存してください。',
    });
  });

  it('refuses a broken quote with the line it was found at', () => {
    expect(readShippedCsv(csv(HEADER, `${ID1},yamato,123456789012`, `${ID2},"yamato"x,123456789012`), LIMITS)).toEqual({
      ok: false,
      code: 'CSV_MALFORMED',
      message:
        'CSVの形式が正しくありません。3行目付近で、引用符（"）の位置が正しくありません。値の中の " は "" と書きます。',
      line: 3,
    });
    expect(readShippedCsv(csv(HEADER, `${ID1},"yamato,123456789012`), LIMITS)).toMatchObject({
      ok: false,
      code: 'CSV_MALFORMED',
      message: expect.stringMatching(/引用符（"）が閉じられていません。$/),
    });
  });

  it('never throws, whatever the bytes or text', () => {
    const csvish = fc.string({ unit: fc.constantFrom('a', '1', '-', ',', '"', '\n', '\r', ' ', 'ヤ', '\uFEFF', ID1) });
    const file = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string({ maxLength: 300, unit: 'binary' }),
      csvish.map((body) => `${HEADER}\n${body}`),
    );
    fc.assert(
      fc.property(file, (input) => {
        const result = readShippedCsv(input, { maxBytes: 2048, maxRows: 20 });
        if (result.ok) for (const error of result.errors) expect(error.message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
        else expect(result.message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
      }),
      { numRuns: propertyRuns(300), seed: testSettings.propertySeed },
    );
  });
});

describe('writeLabelCsv', () => {
  const request = (overrides: Partial<LabelCsvRequest['recipient']> = {}, itemNames = ['リザードンex SAR']) => ({
    requestId: ID1,
    recipient: {
      postalCode: '１０００００１',
      prefecture: '東京都',
      city: '千代田区',
      street: '千代田1-1',
      building: '',
      name: '山田 太郎',
      nameKana: 'ヤマダ タロウ',
      phone: '090-1234-5678',
      ...overrides,
    },
    itemNames,
  });
  const batch = { shipDate: '2027-05-10', itemDescription: 'トレーディングカード' };
  const readBack = (text: string) => parse(text.replace(/^\uFEFF/, ''), { record_delimiter: '\r\n' }) as string[][];

  it('writes a BOM, the documented header and one CRLF line per request', () => {
    const text = writeLabelCsv([request(), request({ building: 'ステラビル 3F' }, ['A', 'B', 'C'])], batch);
    expect(text.startsWith('\uFEFF"依頼ID","出荷予定日","お届け先郵便番号",')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, first, second] = readBack(text);
    expect(header).toEqual([...LABEL_CSV_COLUMNS]);
    expect(first).toEqual([
      ID1,
      '2027/05/10',
      '100-0001',
      '東京都千代田区千代田1-1',
      '',
      '山田 太郎',
      'ヤマダ タロウ',
      '様',
      '090-1234-5678',
      'トレーディングカード',
      '1',
      'リザードンex SAR',
    ]);
    expect(second.slice(4, 5)).toEqual(['ステラビル 3F']);
    expect(second.slice(10)).toEqual(['3', 'A、B、C']);
  });

  it('keeps commas, quotes and line breaks inside their cell', () => {
    const text = writeLabelCsv(
      [request({ street: '千代田1-1, "A"棟', building: '2階\n奥' }, ['"引用"のカード, 1枚'])],
      batch,
    );
    const [, row] = readBack(text);
    expect(row[3]).toBe('東京都千代田区千代田1-1, "A"棟');
    expect(row[4]).toBe('2階\n奥');
    expect(row[11]).toBe('"引用"のカード, 1枚');
    expect(row).toHaveLength(LABEL_CSV_COLUMNS.length);
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    const text = writeLabelCsv(
      [
        request(
          { name: '=HYPERLINK("http://evil.example","x")', nameKana: '+SUM(1,2)', building: '-1+1', phone: '@cmd' },
          ['\tタブ'],
        ),
      ],
      batch,
    );
    const [, row] = readBack(text);
    expect(row[5]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(row[6]).toBe(`'+SUM(1,2)`);
    expect(row[4]).toBe(`'-1+1`);
    expect(row[8]).toBe(`'@cmd`);
    expect(row[11]).toBe(`'\tタブ`);
    // An ordinary address that only contains those characters further in is untouched.
    expect(row[3]).toBe('東京都千代田区千代田1-1');
  });

  it('writes only the header for an empty batch', () => {
    expect(readBack(writeLabelCsv([], batch))).toEqual([[...LABEL_CSV_COLUMNS]]);
  });
});
