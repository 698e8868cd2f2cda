// The pack editor's last step, 確認・公開: the numbers, the pre-publish checks, the preview and the
// publish (or its scheduling), asked first.
import { useEffect, useState } from 'react';
import type { PackEditorAnswer } from '~/lib/admin-packs';
import { Button } from '~/components/Button';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { type Data, n } from './pack-parts';
import { Numbers, PublishFigures } from './pack-numbers';

export function Review({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  // A refusal is shown above the page: the sheet closes so it can be read.
  useEffect(() => {
    if (answer?.error) setAsking(false);
  }, [answer]);
  const { pack, checks } = data;
  const allOk = Boolean(checks?.every((c) => c.ok));
  const scheduled = pack.saleStartsAtLocal && new Date(`${pack.saleStartsAtLocal}:00+09:00`) > new Date();
  return (
    <div className="grid gap-4">
      <Numbers data={data} />
      <section aria-labelledby="checks" className="rounded-2xl border border-line bg-white p-4">
        <h2 id="checks" className="text-lg font-black">
          公開前チェック
        </h2>
        <ul className="mt-2 grid gap-2 text-sm">
          {checks?.map((c) => (
            <li key={c.key}>
              <span className={`font-bold ${c.ok ? 'text-green-800' : 'text-danger'}`}>
                {c.ok ? '✓ OK' : '✕ 要対応'}: {c.label}
              </span>
              {c.problems.length ? (
                <ul className="ml-5 list-disc text-danger">
                  {c.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap gap-3">
          <a
            href={`/gacha/${pack.genreId}/${pack.id}?preview=1`}
            target="_blank"
            rel="noreferrer"
            className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-bold underline"
          >
            会員の画面でプレビュー（新しいタブ）
          </a>
          <Button onClick={() => setAsking(true)} disabled={!allOk}>
            {scheduled ? '公開を予約する' : '公開する'}
          </Button>
        </div>
        {!allOk ? <p className="mt-2 text-xs">すべてのチェックがOKになると公開できます。</p> : null}
      </section>
      {asking ? (
        <ConfirmDialog
          title={scheduled ? '公開を予約しますか？' : 'このパックを公開しますか？'}
          confirmLabel={scheduled ? '予約する' : '公開する'}
          hidden={{ intent: 'publish' }}
          onCancel={() => setAsking(false)}
          busy={busy}
          bodyClassName="grid gap-3 text-sm"
        >
          <p>
            {n(data.numbers.totalLots)}口の並びを秘密のシードで確定し、コミットメントを公開します。
            <strong>公開後は賞・口数・価格・タイトルを変更できません。</strong>
            在庫のカードはこのパックに確保されます。
          </p>
          <PublishFigures numbers={data.numbers} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
