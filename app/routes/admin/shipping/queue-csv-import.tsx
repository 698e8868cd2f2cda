// The desk's shipped-CSV import: a whole file marked shipped or, with a report of every faulty line,
// nothing; the file's size is checked before it is sent. Also where the label CSV's columns are told.
import { useState } from 'react';
import { Form } from 'react-router';
import type { Route } from './+types/index';
import { Button } from '~/components/Button';
import type { DeskActionData } from '~/controllers/admin-shipping.server';
import { DeskAnswer } from './desk-answer';

type QueueData = Route.ComponentProps['loaderData'];

const kb = (bytes: number) => `${Math.floor(bytes / 1000).toLocaleString('ja-JP')}KB`;

/**
 * @example {canWrite ? <CsvImport csv={csv} carriers={carriers} answer={answer} importing={submitting('importCsv')} /> : null}
 */
export function CsvImport({
  csv,
  carriers,
  answer,
  importing,
}: Pick<QueueData, 'csv' | 'carriers'> & { answer: DeskActionData | undefined; importing: boolean }) {
  const [fileError, setFileError] = useState<string | null>(null);
  return (
    <section aria-labelledby="csv-import" className="mt-8 max-w-3xl rounded-2xl border border-line bg-white p-5">
      <h2 id="csv-import" className="text-lg font-bold">
        CSVで発送済みにする
      </h2>
      <p className="mt-1 text-sm text-muted">
        1行目に列名 <code>{csv.columns.join(',')}</code> を書いたCSV（UTF-8またはShift_JIS、{kb(csv.maxBytes)}・
        {csv.maxRows.toLocaleString('ja-JP')}
        行まで）。運送会社は {carriers.map((c) => `${c.name}（${c.id}）`).join('・')}
        。1行でも誤りがあればファイル全体を取り込まず、誤りのある行をすべて表示します。対象は「発送準備中」の依頼のみです。
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-4 grid gap-3">
        <input type="hidden" name="intent" value="importCsv" />
        <DeskAnswer answer={answer} form="csv" />
        {fileError ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
            {fileError}
          </p>
        ) : null}
        <label className="text-xs font-bold">
          CSVファイル
          <input
            type="file"
            name="file"
            accept=".csv,text/csv"
            required
            className="mt-1 block text-sm"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              setFileError(
                file && file.size > csv.maxBytes
                  ? `ファイルが大きすぎます（${kb(csv.maxBytes)}まで）。分けて取り込んでください。`
                  : null,
              );
            }}
          />
        </label>
        <div>
          <Button type="submit" loading={importing} disabled={fileError !== null}>
            取り込んで発送済みにする
          </Button>
        </div>
      </Form>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-bold underline">送り状CSVの列</summary>
        <p className="mt-2 text-muted">
          「送り状CSVをダウンロード」の列（UTF-8・BOM付き。B2クラウド・ゆうプリRの「外部データ取込」で取り込みパターンを一度設定してください。列の説明は
          modules/shipping/README.md）:
        </p>
        <p className="mt-1 font-mono text-xs">{csv.labelColumns.join(', ')}</p>
      </details>
    </section>
  );
}
