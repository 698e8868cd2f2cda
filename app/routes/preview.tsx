// /preview?document=<id>&version=<n>: a saved version of a built-in document as the site would show it,
// for staff with content:write only (docs/decisions/040); everyone else meets the not-found page, so
// drafts never leak. noindex (root's robots meta and the X-Robots-Tag of every /preview answer), and
// the one page that our own origin may frame (the editor's phone and desktop previews, server/security.ts).
import type { Route } from './+types/preview';
import { shopRequestContext } from '~/context';
import { RichText } from '~/components/RichText';
import { ContentSlices } from '~/components/ContentSlices';
import { Image } from '~/components/Image';
import { notFound } from '~/lib/not-found';
import { requestFacts } from '~/lib/admin.server';
import { adminAccessOf } from '#modules/admin';
import { getVersion, type NoticeData, type PageData } from '#modules/content';

export const handle = {
  title: (data: { title: string }) => `プレビュー：${data.title}`,
};

export function headers() {
  return { 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'private, no-store' };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const { db, config } = shop.services;
  const url = new URL(request.url);
  const missing = () =>
    notFound(url.pathname, {
      name: config.SITE_NAME,
      tagline: config.SITE_TAGLINE,
      origin: config.PUBLIC_ORIGIN,
      description: config.SITE_DESCRIPTION,
    });
  if (!shop.member) throw missing();
  const access = await adminAccessOf(db, shop.member.id, requestFacts(shop, request));
  if (!access.ok || !access.operator.permissions.has('content:write')) throw missing();
  const documentId = url.searchParams.get('document') ?? '';
  const version = Number.parseInt(url.searchParams.get('version') ?? '', 10);
  const saved = documentId && Number.isInteger(version) ? await getVersion(db, documentId, version) : null;
  if (!saved) throw missing();
  const data = saved.data as Partial<PageData & NoticeData>;
  return { type: saved.type, uid: saved.uid, version: saved.version, title: data.title ?? '', data };
}

export default function Preview({ loaderData }: Route.ComponentProps) {
  const { data, version, uid, type } = loaderData;
  const hero = typeof data.heroImage === 'string' ? data.heroImage : data.heroImage?.url;
  return (
    <div>
      <p
        role="note"
        className="mx-auto mb-3 max-w-3xl rounded-lg bg-amber-100 p-2 text-center text-xs font-bold text-amber-900"
      >
        プレビュー（版{version}・/{uid}）：この内容はまだ公開されていない場合があります
      </p>
      <article className="mx-auto max-w-3xl overflow-hidden rounded-2xl bg-white shadow-sm">
        {type === 'special' && hero ? (
          <Image
            src={hero}
            alt=""
            width={1200}
            height={500}
            sizes="(min-width: 768px) 768px, 100vw"
            className="aspect-[12/5] h-auto w-full object-cover"
          />
        ) : null}
        <div className="p-5 sm:p-8">
          <h1 className="text-xl font-black sm:text-2xl">{data.title}</h1>
          {data.description ? <p className="mt-2 text-sm text-muted">{data.description}</p> : null}
          <div className="mt-4">
            <RichText value={data.body ?? []} />
          </div>
          <ContentSlices slices={data.slices} />
        </div>
      </article>
    </div>
  );
}
