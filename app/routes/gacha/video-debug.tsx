// /gacha/video/debug: a preview of every reveal animation, for staff and in development.
import type { Route } from './+types/video-debug';
import { shopRequestContext } from '~/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { notFound } from '~/lib/not-found';

export const handle = { title: '演出プレビュー' };

export function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const allowed = shop.services.config.NODE_ENV === 'development' || shop.member?.role === 'admin';
  if (!allowed) throw notFound(new URL(request.url).pathname);
  return null;
}

export default function VideoDebug() {
  return (
    <>
      <PageHeading title="演出プレビュー" lead="スタッフ・開発用：各賞の演出を確認できます。" />
      <EmptyState title="演出はまだ登録されていません">抽選機能の公開とあわせて、各賞の演出がここに並びます。</EmptyState>
    </>
  );
}
