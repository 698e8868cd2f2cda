// /admin/packs: every pack (drafts, scheduled, on sale, over) and step 1 of a new one.
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { packListAction, packListLoader } from '~/controllers/admin-packs.server';
import { STATUS_LABELS, type PackEditorAnswer } from '~/lib/admin-packs';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { FieldError, inputClass } from '~/components/admin/fields';

export const handle = { title: 'パック（ガチャ）' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return packListLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return packListAction(context.get(shopRequestContext), request);
}

const n = (v: number) => v.toLocaleString('ja-JP');

export default function PacksPage({ loaderData }: Route.ComponentProps) {
  const { packs, genres, status } = loaderData;
  const answer = useActionData<PackEditorAnswer>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const typed = answer?.typed ?? {};
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-black">パック（ガチャ）</h1>
      <p className="mt-1 text-sm text-muted">
        下書きを段階ごとに作り、確認画面で還元率・利益・公開前チェックを見てから公開します。公開するとコミットメントが確定し、口の中身は変えられません。
      </p>

      <nav aria-label="状態で絞り込み" className="mt-4 flex flex-wrap gap-2 text-sm">
        {[['', 'すべて'], ...Object.entries(STATUS_LABELS)].map(([id, label]) => (
          <Link
            key={id}
            to={id ? `?status=${id}` : '?'}
            aria-current={status === id ? 'page' : undefined}
            className={`rounded-full border px-3 py-1 font-bold ${status === id ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
          >
            {label}
          </Link>
        ))}
      </nav>

      <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white">
        <table className="w-full text-sm">
          <caption className="sr-only">パックの一覧</caption>
          <thead className="bg-slate-50 text-left text-xs">
            <tr>
              <th className="p-2">パック</th>
              <th className="p-2">状態</th>
              <th className="p-2">価格</th>
              <th className="p-2">残り／総口数</th>
              <th className="p-2">販売開始</th>
            </tr>
          </thead>
          <tbody>
            {packs.length === 0 ? (
              <tr>
                <td colSpan={5} className="p-4 text-center text-muted">
                  該当するパックはありません。
                </td>
              </tr>
            ) : (
              packs.map((p) => (
                <tr key={p.id} className="border-t border-line">
                  <td className="p-2">
                    <Link to={`/admin/packs/${p.id}`} className="font-bold underline">
                      {p.title}
                    </Link>
                    <span className="block font-mono text-xs text-muted">{p.id}</span>
                  </td>
                  <td className="p-2">{p.statusLabel}</td>
                  <td className="p-2">{n(p.pricePerDraw)}コイン</td>
                  <td className="p-2">
                    {n(p.remainingLots)}／{n(p.totalLots)}
                  </td>
                  <td className="p-2">{p.saleStartsAt ? formatStaffDateTime(p.saleStartsAt) : '—'}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <section aria-labelledby="new-pack" className="mt-8 rounded-2xl border border-line bg-white p-4">
        <h2 id="new-pack" className="text-lg font-black">
          新しいパックを作る（1/5 基本情報）
        </h2>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2" noValidate>
          <ActionAnswer answer={answer?.error ? answer : undefined} className="sm:col-span-2" />
          <label className="text-xs font-bold">
            ID（URLになります。英小文字・数字・ハイフン）
            <input
              name="id"
              required
              maxLength={60}
              defaultValue={typed.id}
              aria-invalid={answer?.fields?.id ? true : undefined}
              aria-describedby={answer?.fields?.id ? 'new-id-error' : undefined}
              className={inputClass}
            />
            <FieldError id="new-id-error" message={answer?.fields?.id} />
          </label>
          <label className="text-xs font-bold">
            ジャンル
            <select name="genreId" required defaultValue={typed.genreId ?? genres[0]?.id} className={inputClass}>
              {genres.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
            <FieldError message={answer?.fields?.genreId} />
          </label>
          <label className="text-xs font-bold sm:col-span-2">
            タイトル
            <input
              name="title"
              required
              maxLength={100}
              defaultValue={typed.title}
              aria-invalid={answer?.fields?.title ? true : undefined}
              className={inputClass}
            />
            <FieldError message={answer?.fields?.title} />
          </label>
          <label className="text-xs font-bold sm:col-span-2">
            説明
            <textarea
              name="description"
              rows={3}
              maxLength={4000}
              defaultValue={typed.description}
              className={`${inputClass} py-2`}
            />
            <FieldError message={answer?.fields?.description} />
          </label>
          <div>
            <Button type="submit" loading={busy}>
              下書きを作って次へ
            </Button>
          </div>
        </Form>
      </section>
    </div>
  );
}
