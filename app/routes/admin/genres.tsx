// /admin/genres: the genre tabs of the shop. Each genre's name, old ids that redirect to it (the
// redirect-gacha guard), icon, order and whether members see it; a new genre. A hidden genre's packs
// stay reachable by their own address.
import { useEffect, useRef } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/genres';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { genresAction, genresLoader, type GenreActionData } from '~/controllers/admin-genres.server';

export const handle = { title: 'ジャンル' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return genresLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return genresAction(context.get(shopRequestContext), request);
}

type Genre = Route.ComponentProps['loaderData']['genres'][number];

const input = 'mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm';

function GenreFields({ genre, prefix }: { genre?: Genre; prefix: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {genre ? (
        <input type="hidden" name="id" value={genre.id} />
      ) : (
        <label className="text-xs font-bold">
          ID（URLの /gacha/ID になります）
          <input name="id" required maxLength={40} className={input} />
        </label>
      )}
      <label className="text-xs font-bold">
        名前（タブの表示）
        <input name="name" required maxLength={30} defaultValue={genre?.name} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示順（小さいほど左）
        <input name="sortOrder" inputMode="numeric" defaultValue={genre?.sortOrder ?? 0} className={input} />
      </label>
      <label className="text-xs font-bold sm:col-span-2">
        旧ID・別名（カンマ区切り。/gacha/別名 はこのジャンルへ転送）
        <input name="aliases" defaultValue={genre?.aliases.join(', ')} className={input} />
      </label>
      <label className="text-xs font-bold">
        アイコン（サイト内のパス）
        <input name="iconPath" defaultValue={genre?.iconPath ?? ''} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示開始（日本時間・空欄は制限なし）
        <input type="datetime-local" name="startsAt" defaultValue={genre?.startsAt ?? ''} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示終了（日本時間・空欄は制限なし）
        <input type="datetime-local" name="endsAt" defaultValue={genre?.endsAt ?? ''} className={input} />
      </label>
      <label className="flex items-center gap-2 text-sm" htmlFor={`${prefix}-visible`}>
        <input
          id={`${prefix}-visible`}
          type="checkbox"
          name="visible"
          defaultChecked={genre ? genre.visible : true}
          className="size-4"
        />
        タブに表示する
      </label>
    </div>
  );
}

export default function GenresPage({ loaderData }: Route.ComponentProps) {
  const { genres } = loaderData;
  const answer = useActionData<GenreActionData>();
  const navigation = useNavigation();
  const busy = (form: string) =>
    navigation.state === 'submitting' &&
    (form === 'new' ? navigation.formData?.get('intent') === 'create' : navigation.formData?.get('id') === form);
  const createForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.form === 'new' && answer.ok) createForm.current?.reset();
  }, [answer]);
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">ジャンル</h1>
      <p className="mt-1 text-sm text-muted">
        トップページと /gacha
        のタブです。表示期間を決めると、その期間（日本時間）だけタブに出ます。非表示・期間外のジャンルのガチャも、ガチャのページには引き続きアクセスできます。
      </p>
      <ul className="mt-6 grid gap-3">
        {genres.map((g) => (
          <li key={g.id} className={`rounded-2xl border border-line bg-white p-4`}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-bold">
                {g.name} <span className="font-mono text-xs font-normal text-muted">/gacha/{g.id}</span>
              </p>
              <p className="text-sm">
                ガチャ {g.packs}件・表示順 {g.sortOrder}
                {g.aliases.length ? `・別名 ${g.aliases.join(', ')}` : ''}{' '}
                <span
                  className={`ml-1 rounded px-2 py-0.5 text-xs font-bold ${g.visible ? 'bg-green-100 text-green-900' : 'bg-slate-200'}`}
                >
                  {g.visible
                    ? g.phase === 'open'
                      ? '表示中'
                      : g.phase === 'before'
                        ? '表示前'
                        : '表示終了'
                    : '非表示'}
                </span>
                {g.windowText !== '常時' ? <span className="ml-1 text-xs">期間 {g.windowText}</span> : null}
              </p>
            </div>
            <ActionAnswer answer={answer?.ok ? answer : undefined} form={g.id} />
            <details className="mt-2" open={answer?.form === g.id && Boolean(answer.error)}>
              <summary className="cursor-pointer text-sm font-bold underline">編集する</summary>
              <Form method="post" className="mt-3 grid gap-3">
                <input type="hidden" name="intent" value="save" />
                <ActionAnswer answer={answer?.error ? answer : undefined} form={g.id} />
                <GenreFields genre={g} prefix={`genre-${g.id}`} />
                <div>
                  <Button type="submit" variant="secondary" loading={busy(g.id)}>
                    保存
                  </Button>
                </div>
              </Form>
            </details>
          </li>
        ))}
      </ul>
      <section aria-labelledby="new-genre" className="mt-8 rounded-2xl border border-line bg-white p-5">
        <h2 id="new-genre" className="text-lg font-bold">
          ジャンルを追加する
        </h2>
        <Form method="post" ref={createForm} className="mt-3 grid gap-3">
          <input type="hidden" name="intent" value="create" />
          <ActionAnswer answer={answer} form="new" />
          <GenreFields prefix="new" />
          <div>
            <Button type="submit" loading={busy('new')}>
              追加する
            </Button>
          </div>
        </Form>
      </section>
    </div>
  );
}
