// A published pack: its terms read-only, ending the sale early (asked first) with the reveal, and the
// copy into a new draft.
import { useState } from 'react';
import { Form } from 'react-router';
import type { PackEditorAnswer } from '~/lib/admin-packs';
import { Button } from '~/components/Button';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { type Data, Field, n } from './pack-parts';
import { Numbers } from './pack-numbers';

export function Published({ data, busy }: { data: Data; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  const { pack } = data;
  const live = pack.status === 'on_sale' || pack.status === 'scheduled';
  return (
    <div className="grid gap-4">
      <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-bold text-amber-900">
        公開済みのパックです。口の中身（賞・口数・価格・タイトル）はコミットメントで固定されていて、変更できません。変えたいときは下の「コピーして新しい下書き」を使ってください。
      </p>
      <dl className="grid gap-2 rounded-2xl border border-line bg-white p-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-muted">状態</dt>
          <dd className="font-bold">{pack.statusLabel}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">残り／総口数</dt>
          <dd className="font-bold">
            {n(pack.remainingLots)}／{n(pack.totalLots)}口
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">コミットメント</dt>
          <dd className="font-mono text-xs break-all">{pack.commitment}</dd>
        </div>
      </dl>
      <Numbers data={data} />
      <div className="flex flex-wrap gap-3">
        <a
          href={`/gacha/${pack.genreId}/${pack.id}`}
          className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-bold underline"
        >
          ショップで見る
        </a>
        {pack.revealed ? (
          <a
            href={`/api/v1/gachas/${pack.id}/reveal`}
            className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-bold underline"
          >
            公開された抽選記録（シード・ログ）
          </a>
        ) : null}
        {live ? (
          <Button variant="danger" onClick={() => setAsking(true)}>
            販売を終了する
          </Button>
        ) : null}
      </div>
      {asking ? (
        <ConfirmDialog
          title="販売を終了しますか？"
          confirmLabel="終了する"
          confirmVariant="danger"
          hidden={{ intent: 'end' }}
          onCancel={() => setAsking(false)}
          busy={busy}
          bodyClassName="grid gap-3 text-sm"
        >
          <p>
            これ以降は誰も引けなくなり、シードと抽選ログが公開されます。残りの{n(pack.remainingLots)}
            口のカードは在庫に戻ります。元に戻せません。
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

export function CopyForm({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  return (
    <section aria-labelledby="copy" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="copy" className="text-lg font-black">
        コピーして新しい下書き
      </h2>
      <Form method="post" className="mt-2 grid gap-3 sm:grid-cols-3" noValidate>
        <input type="hidden" name="intent" value="copy" />
        <Field
          label="新しいID"
          name="copyId"
          answer={{ fields: { copyId: answer?.fields?.['copy.id'] ?? '' } }}
          defaultValue={answer?.typed?.copyId ?? `${data.pack.id}-2`.slice(0, 60)}
        />
        <Field
          label="新しいタイトル"
          name="copyTitle"
          answer={{ fields: { copyTitle: answer?.fields?.['copy.title'] ?? '' } }}
          defaultValue={answer?.typed?.copyTitle ?? `${data.pack.title}（コピー）`.slice(0, 100)}
          className="sm:col-span-2"
        />
        <div>
          <Button type="submit" variant="secondary" loading={busy}>
            コピーする
          </Button>
        </div>
      </Form>
    </section>
  );
}
