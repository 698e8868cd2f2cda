// /preview: a draft as the site would show it (decisions 039, 040), noindex, never cached.
// - Built-in store: ?document=<id>&version=<n>, for staff with content:write only.
// - Prismic: Prismic's preview link (?token=<preview ref>&documentId=<id>) or its preview cookie
//   (io.prismic.preview) with ?documentId=; the ref is Prismic's own secret, so it is the access check.
// Everyone else meets the not-found page, so drafts never leak. The one page our own origin may frame
// (the editor's phone and desktop previews, server/security.ts).
import type { Route } from './+types/preview';
import { data } from 'react-router';
import { shopRequestContext } from '#server/context';
import { ContentArticle } from '~/components/ContentArticle';
import { notFound } from '~/lib/not-found';
import { requestFacts } from '~/controllers/admin.server';
import { contentOf } from '#server/context';
import { adminAccessOf } from '#modules/admin';
import { getVersion, normaliseNoticeData, normalisePageData, type NoticeData, type PageData } from '#modules/content';

export const handle = {
  title: (loaderData: { title: string }) => `プレビュー：${loaderData.title}`,
};

/** Prismic's preview cookie (set by its toolbar, and by this page when opened from a preview link). */
const PRISMIC_PREVIEW_COOKIE = 'io.prismic.preview';
const PRISMIC_DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'private, no-store' });
  const cookie = loaderHeaders.get('Set-Cookie');
  if (cookie) headers.set('Set-Cookie', cookie);
  return headers;
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A Prismic preview ref is an https URL of Prismic's (or of the configured endpoint's host). */
function prismicRefOf(value: string | null): string | null {
  if (!value) return null;
  // The toolbar's cookie is JSON ({ "<repo>.prismic.io": { preview: "<ref>" } }); a preview link's token is the ref.
  if (value.startsWith('{')) {
    try {
      const parsed = JSON.parse(value) as Record<string, { preview?: unknown }>;
      const ref = Object.values(parsed).find((entry) => typeof entry?.preview === 'string')?.preview;
      return typeof ref === 'string' ? prismicRefOf(ref) : null;
    } catch {
      return null;
    }
  }
  return value.length <= 2000 && /^https?:\/\/\S+$/.test(value) ? value : null;
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
  const content = contentOf(shop.services);

  if (content.kind === 'prismic') {
    const token = prismicRefOf(url.searchParams.get('token'));
    const ref = token ?? prismicRefOf(cookieValue(request, PRISMIC_PREVIEW_COOKIE));
    const documentId = url.searchParams.get('documentId') ?? '';
    if (!ref || !PRISMIC_DOCUMENT_ID.test(documentId)) throw missing();
    const document = await content.getPreview({ kind: 'prismic', ref, documentId });
    if (!document || document.type === 'banner') throw missing();
    const page = document.data as Partial<PageData & NoticeData>;
    return data(
      { source: 'prismic' as const, label: `Prismic・${document.url ?? document.uid}`, title: page.title ?? '', page },
      token
        ? {
            headers: {
              // Later pages of the session read the same ref, as Prismic's toolbar expects.
              'Set-Cookie': `${PRISMIC_PREVIEW_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=1800; HttpOnly; SameSite=Lax${config.PUBLIC_ORIGIN.startsWith('https:') ? '; Secure' : ''}`,
            },
          }
        : undefined,
    );
  }

  if (!shop.member) throw missing();
  const access = await adminAccessOf(db, shop.member.id, requestFacts(shop, request));
  if (!access.ok || !access.operator.permissions.has('content:write')) throw missing();
  const documentId = url.searchParams.get('document') ?? '';
  const version = Number.parseInt(url.searchParams.get('version') ?? '', 10);
  const saved = documentId && Number.isInteger(version) ? await getVersion(db, documentId, version) : null;
  if (!saved) throw missing();
  // The same safe shapes the published page gets (decision 042).
  const page: Partial<PageData & NoticeData> =
    saved.type === 'notice' ? normaliseNoticeData(saved.data) : normalisePageData(saved.data);
  const path = saved.type === 'notice' ? `/notices/${saved.uid}` : `/${saved.uid}`;
  return { source: 'builtin' as const, label: `版${saved.version}・${path}`, title: page.title ?? '', page };
}

export default function Preview({ loaderData }: Route.ComponentProps) {
  const { page, label } = loaderData;
  return (
    <div>
      <p
        role="note"
        className="mx-auto mb-3 max-w-3xl rounded-lg bg-amber-100 p-2 text-center text-xs font-bold text-amber-900"
      >
        プレビュー（{label}）：この内容はまだ公開されていない場合があります
      </p>
      <ContentArticle
        data={{
          title: page.title ?? '',
          description: page.description,
          heroImage: page.heroImage,
          body: page.body ?? [],
          slices: page.slices,
        }}
      />
    </div>
  );
}
