// The content editor's version history: pick two versions to diff, or roll back to an earlier one.
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import type { ContentActionData } from '~/controllers/admin-content.server';
import { ContentQuestionDialog, useContentQuestion } from './ContentQuestion';
import type { EditorPage } from './form';

/** The line diff between two versions, read out as added and removed by screen readers. */
function VersionDiff({ diff }: { diff: NonNullable<EditorPage['diff']> }) {
  return (
    <div className="mt-4">
      <h3 className="text-sm font-bold">
        版{diff.from} → 版{diff.to} の差分（+ 追加・− 削除）
      </h3>
      <pre className="mt-2 overflow-x-auto rounded-lg border border-line text-xs" data-testid="version-diff">
        {diff.lines.map((line, i) => (
          <div
            key={i}
            className={
              line.kind === 'added'
                ? 'bg-green-100 text-green-900'
                : line.kind === 'removed'
                  ? 'bg-red-100 text-red-900'
                  : ''
            }
          >
            <span aria-hidden="true">{line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}</span>
            {line.kind === 'added' ? (
              <span className="sr-only">追加：</span>
            ) : line.kind === 'removed' ? (
              <span className="sr-only">削除：</span>
            ) : null}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

export function VersionHistory({
  doc,
  versions,
  diff,
  answer,
  busy,
}: {
  doc: EditorPage['document'];
  versions: EditorPage['versions'];
  diff: EditorPage['diff'];
  answer: ContentActionData | undefined;
  busy: (intent: string) => boolean;
}) {
  const navigation = useNavigation();
  const [asking, ask] = useContentQuestion();
  return (
    <section aria-labelledby="history-title" className="mt-6 rounded-2xl border border-line bg-white p-5">
      <h2 id="history-title" className="text-lg font-bold">
        履歴
      </h2>
      <ActionAnswer answer={answer} form="history" />
      <Form method="get" className="mt-3 grid gap-2">
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col">比較元</th>
              <th scope="col">比較先</th>
              <th scope="col">版</th>
              <th scope="col">タイトル・URL</th>
              <th scope="col">保存</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.version} className="border-t border-line">
                <td>
                  <input
                    type="radio"
                    name="from"
                    value={v.version}
                    defaultChecked={diff ? diff.from === v.version : v.version === doc.currentVersion - 1}
                    aria-label={`版${v.version}を比較元にする`}
                  />
                </td>
                <td>
                  <input
                    type="radio"
                    name="to"
                    value={v.version}
                    defaultChecked={diff ? diff.to === v.version : v.version === doc.currentVersion}
                    aria-label={`版${v.version}を比較先にする`}
                  />
                </td>
                <td className="font-bold">
                  版{v.version}
                  {v.version === doc.publishedVersion ? (
                    <span className="ml-1 rounded bg-green-100 px-1 text-xs text-green-900">公開中</span>
                  ) : null}
                </td>
                <td>
                  {v.title} <span className="font-mono text-xs">/{v.uid}</span>
                  {v.note ? <span className="block text-xs text-muted">{v.note}</span> : null}
                </td>
                <td className="text-xs">
                  {v.at}・{v.by}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div>
          <Button type="submit" variant="secondary">
            差分を見る
          </Button>
        </div>
      </Form>
      <div className="mt-3 flex flex-wrap gap-2">
        {versions
          .filter((v) => v.version !== doc.currentVersion)
          .slice(0, 10)
          .map((v) => (
            <Button
              key={v.version}
              variant="plain"
              loading={busy('rollback') && navigation.formData?.get('version') === String(v.version)}
              onClick={() =>
                ask({
                  title: `版${v.version}の内容に戻して公開しますか？`,
                  detail: '新しい版として保存されます。',
                  confirmLabel: '戻して公開する',
                  hidden: { intent: 'rollback', version: v.version },
                })
              }
            >
              版{v.version}に戻す
            </Button>
          ))}
      </div>
      <ContentQuestionDialog asking={asking} busy={busy} onCancel={() => ask(null)} />
      {diff ? <VersionDiff diff={diff} /> : null}
    </section>
  );
}
