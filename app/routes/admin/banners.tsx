// /admin/banners: the home page's banner carousel. Each banner's art (uploaded, cropped to 12:5),
// title, alternative text, link, period text, order, on/off and display window in Japan time; a new
// banner. Members see a banner while it is on and inside its window (docs/decisions/031).
import { useEffect, useRef } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/banners';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { bannersAction, bannersLoader, type BannerActionData } from '~/controllers/admin-banners.server';

export const handle = { title: 'バナー' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return bannersLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return bannersAction(context.get(shopRequestContext), request);
}

type Banner = Route.ComponentProps['loaderData']['banners'][number];
type ImageRules = Route.ComponentProps['loaderData']['image'];

const input = 'mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm';

function BannerFields({ banner, prefix, image }: { banner?: Banner; prefix: string; image: ImageRules }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {banner ? <input type="hidden" name="uid" value={banner.uid} /> : null}
      <label className="text-xs font-bold">
        タイトル（バナーに重ねて表示）
        <input name="title" required maxLength={40} defaultValue={banner?.title} className={input} />
      </label>
      <label className="text-xs font-bold">
        画像の説明（代替テキスト・必須）
        <input name="alt" required maxLength={120} defaultValue={banner?.alt} className={input} />
      </label>
      <label className="text-xs font-bold">
        リンク先（/で始まるサイト内のパス、または https:// のURL）
        <input name="link" required maxLength={500} defaultValue={banner?.link} className={input} />
      </label>
      <label className="text-xs font-bold">
        期間の表示（任意。例：12月1日〜12月25日）
        <input name="period" maxLength={40} defaultValue={banner?.period} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示開始（日本時間・空欄は制限なし）
        <input type="datetime-local" name="startsAt" defaultValue={banner?.startsAt ?? ''} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示終了（日本時間・空欄は制限なし）
        <input type="datetime-local" name="endsAt" defaultValue={banner?.endsAt ?? ''} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示順（小さいほど先）
        <input name="order" inputMode="numeric" defaultValue={banner?.order ?? 0} className={input} />
      </label>
      <label className="text-xs font-bold">
        画像（JPEG・PNG・WebP、{image.maxMegabytes}MBまで。{image.width}×{image.height}に切り抜き）
        {banner ? '・変更するときだけ選ぶ' : ''}
        <input
          type="file"
          name="image"
          accept="image/jpeg,image/png,image/webp"
          required={!banner}
          className="mt-1 block w-full text-sm"
        />
      </label>
      <label className="flex items-center gap-2 text-sm" htmlFor={`${prefix}-active`}>
        <input
          id={`${prefix}-active`}
          type="checkbox"
          name="active"
          defaultChecked={banner ? banner.active : true}
          className="size-4"
        />
        公開する
      </label>
    </div>
  );
}

function status(b: Banner): { text: string; className: string } {
  if (!b.active) return { text: '非公開', className: 'bg-slate-200' };
  if (b.phase === 'before') return { text: '表示前', className: 'bg-amber-100 text-amber-900' };
  if (b.phase === 'after') return { text: '表示終了', className: 'bg-slate-200' };
  return { text: '表示中', className: 'bg-green-100 text-green-900' };
}

export default function BannersPage({ loaderData }: Route.ComponentProps) {
  const { banners, image } = loaderData;
  const answer = useActionData<BannerActionData>();
  const navigation = useNavigation();
  const busy = (form: string, intent?: string) =>
    navigation.state === 'submitting' &&
    (form === 'new'
      ? navigation.formData?.get('intent') === 'create'
      : navigation.formData?.get('uid') === form && (!intent || navigation.formData?.get('intent') === intent));
  const createForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.form === 'new' && answer.ok) createForm.current?.reset();
  }, [answer]);
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">バナー</h1>
      <p className="mt-1 text-sm text-muted">
        トップページのバナーです。公開中で、表示期間（日本時間）の中にあるバナーだけが表示順に表示されます。画像は自社で用意したオリジナルのものを使ってください。
      </p>
      {banners.length === 0 ? <p className="mt-6 text-sm">バナーはまだありません。</p> : null}
      <ol className="mt-6 grid gap-3">
        {banners.map((b, index) => {
          const s = status(b);
          return (
            <li key={b.uid} className="rounded-2xl border border-line bg-white p-4" data-testid="admin-banner">
              <div className="flex flex-wrap items-start gap-4">
                <img
                  src={b.image}
                  alt={b.alt}
                  width={240}
                  height={100}
                  className="h-[100px] w-[240px] rounded-lg border border-line object-cover"
                />
                <div className="min-w-0 flex-1">
                  <p className="font-bold">{b.title}</p>
                  <p className="mt-1 break-all text-sm">
                    リンク先 <span className="font-mono">{b.link}</span>
                  </p>
                  <p className="mt-1 text-sm">
                    表示順 {b.order}・期間 {b.windowText}{' '}
                    <span className={`ml-1 rounded px-2 py-0.5 text-xs font-bold ${s.className}`}>{s.text}</span>
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Form method="post">
                    <input type="hidden" name="uid" value={b.uid} />
                    <input type="hidden" name="intent" value="up" />
                    <Button
                      type="submit"
                      variant="secondary"
                      disabled={index === 0}
                      loading={busy(b.uid, 'up')}
                      aria-label={`「${b.title}」を上へ`}
                    >
                      上へ
                    </Button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="uid" value={b.uid} />
                    <input type="hidden" name="intent" value="down" />
                    <Button
                      type="submit"
                      variant="secondary"
                      disabled={index === banners.length - 1}
                      loading={busy(b.uid, 'down')}
                      aria-label={`「${b.title}」を下へ`}
                    >
                      下へ
                    </Button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="uid" value={b.uid} />
                    <input type="hidden" name="intent" value={b.active ? 'deactivate' : 'activate'} />
                    <Button
                      type="submit"
                      variant="secondary"
                      loading={busy(b.uid, b.active ? 'deactivate' : 'activate')}
                      aria-label={`「${b.title}」を${b.active ? '非公開にする' : '公開する'}`}
                    >
                      {b.active ? '非公開にする' : '公開する'}
                    </Button>
                  </Form>
                </div>
              </div>
              <ActionAnswer answer={answer?.ok ? answer : undefined} form={b.uid} />
              <details className="mt-2" open={answer?.form === b.uid && Boolean(answer.error)}>
                <summary className="cursor-pointer text-sm font-bold underline">編集する</summary>
                <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3">
                  <input type="hidden" name="intent" value="save" />
                  <ActionAnswer answer={answer?.error ? answer : undefined} form={b.uid} />
                  <BannerFields banner={b} prefix={`banner-${b.uid}`} image={image} />
                  <div>
                    <Button type="submit" variant="secondary" loading={busy(b.uid, 'save')}>
                      保存
                    </Button>
                  </div>
                </Form>
              </details>
            </li>
          );
        })}
      </ol>
      <section aria-labelledby="new-banner" className="mt-8 rounded-2xl border border-line bg-white p-5">
        <h2 id="new-banner" className="text-lg font-bold">
          バナーを追加する
        </h2>
        <Form method="post" encType="multipart/form-data" ref={createForm} className="mt-3 grid gap-3">
          <input type="hidden" name="intent" value="create" />
          <ActionAnswer answer={answer} form="new" />
          <BannerFields prefix="new" image={image} />
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
