// The fulfilment desk's CSV files: reading "shipped" rows (request id, carrier, tracking number) and writing a batch for the carriers' label software.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { isUuid } from '#modules/kernel';
import type { JstDate } from './business-days';
import { carrierFromText, checkTrackingNumber, type CarrierCode } from './carriers';

// ── Import: shipped rows ────────────────────────────────────────────────────────────────────────

/** The import's columns, in any order, named on the first line (the header is required). */
export const SHIPPED_CSV_COLUMNS = ['request_id', 'carrier', 'tracking_number'] as const;
export type ShippedCsvColumn = (typeof SHIPPED_CSV_COLUMNS)[number];

/** How much one import may hold; from the settings, so the desk and the API agree. */
export interface ShippedCsvLimits {
  /** The file's size in bytes, as uploaded. */
  maxBytes: number;
  /** Data rows (the header and empty lines not counted). */
  maxRows: number;
}

/** A row ready to apply: its line in the file, the request, and the tracking number in its stored form. */
export interface ShippedCsvRow {
  line: number;
  requestId: string;
  carrier: CarrierCode;
  trackingNumber: string;
}

/** A row's faults: its own, and carriers.ts's tracking-number codes as they are (one meaning each). */
export const SHIPPED_CSV_ROW_ERROR_CODES = [
  'ROW_COLUMN_COUNT',
  'REQUEST_ID_INVALID',
  'REQUEST_ID_DUPLICATE',
  'CARRIER_UNKNOWN',
  'TRACKING_NUMBER_REQUIRED',
  'TRACKING_NUMBER_FORMAT',
] as const;
export type ShippedCsvRowErrorCode = (typeof SHIPPED_CSV_ROW_ERROR_CODES)[number];

/** One fault of one row (a row may have one per column); the row is then not in `rows`. */
export interface ShippedCsvRowError {
  /** The line in the file where the row starts (the header is line 1), as a text editor numbers it. */
  line: number;
  /** The column at fault; absent when the row as a whole is (its number of fields). */
  column?: ShippedCsvColumn;
  code: ShippedCsvRowErrorCode;
  message: string;
}

export const SHIPPED_CSV_FILE_ERROR_CODES = [
  'CSV_TOO_LARGE',
  'CSV_ENCODING',
  'CSV_MALFORMED',
  'CSV_HEADER',
  'CSV_NO_ROWS',
  'CSV_TOO_MANY_ROWS',
] as const;
export type ShippedCsvFileErrorCode = (typeof SHIPPED_CSV_FILE_ERROR_CODES)[number];

/**
 * The file read: every good row and every fault of the others, or the whole file refused (nothing
 * in it can be trusted). A caller that must not half-apply a file applies `rows` only when `errors`
 * is empty.
 */
export type ShippedCsvImport =
  | { ok: true; rows: ShippedCsvRow[]; errors: ShippedCsvRowError[] }
  | { ok: false; code: ShippedCsvFileErrorCode; message: string; line?: number };

const COLUMN_NAMES: Record<ShippedCsvColumn, string> = {
  request_id: '依頼ID（request_id）',
  carrier: '運送会社（carrier）',
  tracking_number: '追跡番号（tracking_number）',
};

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))}MB` : `${Math.max(1, Math.floor(bytes / 1024))}KB`;

/** A value quoted back in a message, cut short: a row may hold anything up to the file's size. */
const echo = (text: string) => (text.length > 20 ? `${text.slice(0, 20)}…` : text);

const refuseFile = (code: ShippedCsvFileErrorCode, message: string, line?: number): ShippedCsvImport =>
  line === undefined ? { ok: false, code, message } : { ok: false, code, message, line };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The file's text: UTF-8 (with or without a BOM) or, failing that, Shift_JIS (Windows-31J, what
 * Excel on Japanese Windows saves as "CSV"). Null when it is neither.
 */
function decode(bytes: Uint8Array): string | null {
  const body = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? bytes.subarray(3) : bytes;
  for (const encoding of ['utf-8', 'shift_jis']) {
    try {
      return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
    } catch {
      // Not this encoding: try the next.
    }
  }
  return null;
}

/** What csv-parse's refusal means for the operator, with the line it stopped at. */
function malformedMessage(error: unknown): { message: string; line?: number } {
  const { code, lines } = (error ?? {}) as { code?: string; lines?: number };
  const at = typeof lines === 'number' ? `${lines}行目付近で、` : '';
  const line = typeof lines === 'number' ? lines : undefined;
  if (code === 'CSV_QUOTE_NOT_CLOSED')
    return { line, message: `CSVの形式が正しくありません。${at}引用符（"）が閉じられていません。` };
  if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'INVALID_OPENING_QUOTE')
    return {
      line,
      message: `CSVの形式が正しくありません。${at}引用符（"）の位置が正しくありません。値の中の " は "" と書きます。`,
    };
  return { line, message: `CSVの形式が正しくありません。${at}読み取れませんでした。` };
}

/** The header's columns by position, or the reason it is not the import's header. */
function readHeader(
  names: string[],
): { ok: true; positions: Map<ShippedCsvColumn, number> } | { ok: false; message: string } {
  const positions = new Map<ShippedCsvColumn, number>();
  const unknown: string[] = [];
  const repeated: string[] = [];
  names.forEach((raw, index) => {
    const name = raw.normalize('NFKC').trim().toLowerCase();
    // An empty heading is what Excel leaves after a trailing comma: ignored with its column.
    if (!name) return;
    const column = SHIPPED_CSV_COLUMNS.find((candidate) => candidate === name);
    if (!column) unknown.push(echo(raw.trim()));
    else if (positions.has(column)) repeated.push(column);
    else positions.set(column, index);
  });
  const missing = SHIPPED_CSV_COLUMNS.filter((column) => !positions.has(column));
  const expected = `1行目は見出し「${SHIPPED_CSV_COLUMNS.join(',')}」にしてください。`;
  if (missing.length) return { ok: false, message: `見出しに列がありません: ${missing.join('、')}。${expected}` };
  if (repeated.length) return { ok: false, message: `見出しの列が重複しています: ${repeated.join('、')}。${expected}` };
  if (unknown.length) return { ok: false, message: `見出しに不明な列があります: ${unknown.join('、')}。${expected}` };
  return { ok: true, positions };
}

/**
 * Reads the desk's "shipped" CSV: `request_id,carrier,tracking_number` with that header (any column
 * order), UTF-8 with or without a BOM, or Shift_JIS; the carrier as a code or a Japanese name
 * (`carrierFromText`); tracking numbers as typed (full-width, hyphens: `checkTrackingNumber`).
 * Never throws on the file's content: every fault is a row error or a refusal of the whole file
 * (too large, unreadable, wrong header, no rows, too many rows), each with a Japanese message.
 * It checks the file only: whether each request exists and may be shipped is the caller's question.
 * @example readShippedCsv('request_id,carrier,tracking_number\n3f1c…,ヤマト運輸,1234-5678-9012\n', { maxBytes: 1_048_576, maxRows: 1000 })
 * // { ok: true, rows: [{ line: 2, requestId: '3f1c…', carrier: 'yamato', trackingNumber: '123456789012' }], errors: [] }
 */
export function readShippedCsv(file: Uint8Array | string, limits: ShippedCsvLimits): ShippedCsvImport {
  if (!(
    Number.isInteger(limits.maxBytes) &&
    limits.maxBytes > 0 &&
    Number.isInteger(limits.maxRows) &&
    limits.maxRows > 0
  ))
    throw new RangeError(`CSV limits must be positive whole numbers (got ${JSON.stringify(limits)})`);

  const size = typeof file === 'string' ? new TextEncoder().encode(file).byteLength : file.byteLength;
  if (size > limits.maxBytes)
    return refuseFile(
      'CSV_TOO_LARGE',
      `ファイルが大きすぎます（上限は${sizeText(limits.maxBytes)}です）。ファイルを分けて取り込んでください。`,
    );
  const decoded = typeof file === 'string' ? file.replace(/^\uFEFF/, '') : decode(file);
  if (decoded === null)
    return refuseFile(
      'CSV_ENCODING',
      'ファイルの文字コードを読み取れません。UTF-8またはShift_JISのCSVで保存してください。',
    );
  // One line break for the parser, so its line numbers are the ones an editor shows (CRLF from Excel, CR from old Macs).
  const text = decoded.replace(/\r\n?/g, '\n');

  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      info: true,
      record_delimiter: '\n',
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const { message, line } = malformedMessage(error);
    return refuseFile('CSV_MALFORMED', message, line);
  }
  // A line of commas only (Excel's empty row) is an empty line too.
  const filled = records.filter(({ record }) => record.some((field) => field !== ''));
  if (!filled.length)
    return refuseFile(
      'CSV_HEADER',
      `ファイルが空です。1行目は見出し「${SHIPPED_CSV_COLUMNS.join(',')}」にしてください。`,
    );
  const [headerRecord, ...dataRecords] = filled;
  const header = readHeader(headerRecord.record);
  if (!header.ok) return refuseFile('CSV_HEADER', header.message, 1);
  if (!dataRecords.length) return refuseFile('CSV_NO_ROWS', '取り込む行がありません（見出しの行だけです）。');
  if (dataRecords.length > limits.maxRows)
    return refuseFile(
      'CSV_TOO_MANY_ROWS',
      `行が多すぎます（${dataRecords.length.toLocaleString('ja-JP')}行、上限は${limits.maxRows.toLocaleString('ja-JP')}行です）。ファイルを分けて取り込んでください。`,
    );

  const rows: ShippedCsvRow[] = [];
  const errors: ShippedCsvRowError[] = [];
  const firstLineOf = new Map<string, number>();
  // Columns after the last heading are Excel's trailing commas, in the header or in a row.
  const width = headerRecord.record.findLastIndex((name) => name !== '') + 1;
  for (const { record, info } of dataRecords) {
    // info.lines is where the row ends; a quoted value with line breaks started it earlier.
    const line = info.lines - record.reduce((breaks, field) => breaks + (field.match(/\n/g)?.length ?? 0), 0);
    const rowErrors: ShippedCsvRowError[] = [];
    const fail = (code: ShippedCsvRowErrorCode, message: string, column?: ShippedCsvColumn) =>
      rowErrors.push(column ? { line, column, code, message } : { line, code, message });
    // Fewer fields than headings, or more that hold something.
    if (record.length < width || record.slice(width).some((field) => field !== '')) {
      fail('ROW_COLUMN_COUNT', `列の数が見出しと合いません（見出しは${width}列、この行は${record.length}列です）。`);
      errors.push(...rowErrors);
      continue;
    }
    const field = (column: ShippedCsvColumn) => record[header.positions.get(column)!];

    const requestId = field('request_id').toLowerCase();
    if (!requestId) fail('REQUEST_ID_INVALID', `${COLUMN_NAMES.request_id}がありません。`, 'request_id');
    else if (!isUuid(requestId))
      fail(
        'REQUEST_ID_INVALID',
        `${COLUMN_NAMES.request_id}の形式が正しくありません（発送依頼のIDを書いてください）。`,
        'request_id',
      );
    else if (firstLineOf.has(requestId))
      fail(
        'REQUEST_ID_DUPLICATE',
        `同じ依頼IDが${firstLineOf.get(requestId)}行目にもあります。1つの依頼は1行にしてください。`,
        'request_id',
      );

    const carrierText = field('carrier');
    const carrier = carrierFromText(carrierText);
    if (!carrier)
      fail(
        'CARRIER_UNKNOWN',
        carrierText
          ? `${COLUMN_NAMES.carrier}「${echo(carrierText)}」は扱っていません。yamato（ヤマト運輸）、sagawa（佐川急便）、japanpost（日本郵便）のいずれかを書いてください。`
          : `${COLUMN_NAMES.carrier}がありません。yamato（ヤマト運輸）、sagawa（佐川急便）、japanpost（日本郵便）のいずれかを書いてください。`,
        'carrier',
      );
    else {
      const tracking = checkTrackingNumber(carrier, field('tracking_number'));
      if (!tracking.ok) fail(tracking.code, tracking.message, 'tracking_number');
      else if (!rowErrors.length) rows.push({ line, requestId, carrier, trackingNumber: tracking.trackingNumber });
    }
    if (isUuid(requestId) && !firstLineOf.has(requestId)) firstLineOf.set(requestId, line);
    errors.push(...rowErrors);
  }
  return { ok: true, rows, errors };
}

// ── Export: a batch for the label software ─────────────────────────────────────────────────────

/**
 * The export's columns, in order. Close to ヤマト運輸 B2クラウド's and 日本郵便 ゆうプリR's
 * "外部データ取込" layouts, so an import pattern is set up once in either; each is described in
 * modules/shipping/README.md.
 */
export const LABEL_CSV_COLUMNS = [
  '依頼ID',
  '出荷予定日',
  'お届け先郵便番号',
  'お届け先住所1',
  'お届け先住所2',
  'お届け先名',
  'お届け先名カナ',
  '敬称',
  'お届け先電話番号',
  '品名',
  '点数',
  '内容',
] as const;

/** One request of the batch: its id, the address decrypted for this export, and its cards' names. */
export interface LabelCsvRequest {
  requestId: string;
  recipient: {
    /** 郵便番号 as stored (1000001 or 100-0001; full-width forgiven). */
    postalCode: string;
    /** 都道府県 */
    prefecture: string;
    /** 市区町村 */
    city: string;
    /** 町域・番地 */
    street: string;
    /** 建物名 (may be empty) */
    building: string;
    /** 氏名 */
    name: string;
    /** フリガナ */
    nameKana: string;
    /** 電話番号 as shown to people (090-1234-5678) */
    phone: string;
  };
  /** The cards in the parcel, for the 内容 column (the packing slip lists them in full). */
  itemNames: readonly string[];
}

export interface LabelCsvBatch {
  /** 出荷予定日 of every row: the day the batch is handed to the carrier. */
  shipDate: JstDate;
  /**
   * 品名 on every label, e.g. 'トレーディングカード': a generic word, because the label is read by
   * everyone the parcel passes and a valuable card's name invites theft.
   */
  itemDescription: string;
}

const formatPostalCode = (text: string) => {
  const digits = text.normalize('NFKC').replace(/[-\u2010-\u2015\u2212\u30fc\s]/g, '');
  return /^\d{7}$/.test(digits) ? `${digits.slice(0, 3)}-${digits.slice(3)}` : text;
};

/**
 * Writes the batch for the carriers' label software: UTF-8 with a BOM (Excel and both carriers'
 * tools read it as UTF-8), CRLF line ends, a header line of `LABEL_CSV_COLUMNS`, every text quoted
 * (commas, quotes and line breaks stay inside their cell), and a cell that starts with = + - @, a
 * tab or a carriage return prefixed with ' so a spreadsheet never runs it as a formula.
 * @example writeLabelCsv([request], { shipDate: '2027-05-10', itemDescription: 'トレーディングカード' })
 * // '\uFEFF"依頼ID","出荷予定日",…\r\n"3f1c…","2027/05/10","100-0001","東京都千代田区千代田1-1",…\r\n'
 */
export function writeLabelCsv(requests: readonly LabelCsvRequest[], batch: LabelCsvBatch): string {
  const shipDate = batch.shipDate.replaceAll('-', '/');
  const records = requests.map(({ requestId, recipient, itemNames }) => [
    requestId,
    shipDate,
    formatPostalCode(recipient.postalCode),
    `${recipient.prefecture}${recipient.city}${recipient.street}`,
    recipient.building,
    recipient.name,
    recipient.nameKana,
    '様',
    recipient.phone,
    batch.itemDescription,
    itemNames.length,
    itemNames.join('、'),
  ]);
  return stringify(records, {
    bom: true,
    header: true,
    columns: [...LABEL_CSV_COLUMNS],
    quoted_string: true,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
}
