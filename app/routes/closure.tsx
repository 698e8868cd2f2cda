// /closure: the closure's public notice (公告, decision 085): the operator's text, when sales stop, the refund
// deadline and how to apply. Anyone may read it; 404 while no closure is announced.
import type { Route } from './+types/closure';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { closureNoticeLoader } from '~/controllers/closure-refund.server';

export const handle = { title: '閉店と払戻しのお知らせ（公告）' };

export async function loader({ context }: Route.LoaderArgs) {
  return closureNoticeLoader(context.get(shopRequestContext));
}

export default function ClosureNotice({ loaderData }: Route.ComponentProps) {
  const { closure, siteName } = loaderData;
  return (
    <article className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-3 py-4">
      <PageHeading title="閉店と払戻しのお知らせ（公告）" lead={`${siteName}・公告日 ${closure.announcedText}`} />
      <dl className="grid gap-2 rounded-2xl border border-line bg-white p-4 text-sm">
        <div>
          <dt className="font-bold">販売（コインの購入・ガチャ）の終了</dt>
          <dd>{closure.salesStopText}（日本時間）</dd>
        </div>
        <div>
          <dt className="font-bold">払戻しの対象</dt>
          <dd>未使用の有償コイン（1コイン＝1円）。無償コインは対象外です。</dd>
        </div>
        <div>
          <dt className="font-bold">払戻しの申出期限</dt>
          <dd>{closure.refundDeadlineText}（日本時間）</dd>
        </div>
        <div>
          <dt className="font-bold">お申し込み方法</dt>
          <dd>
            ログインして<AppLink to="/mypage/refund">払戻しのお申し込み</AppLink>
            のページで振込先の口座をご登録ください。
          </dd>
        </div>
      </dl>
      <div className="whitespace-pre-wrap rounded-2xl border border-line bg-white p-4 text-sm leading-relaxed">
        {closure.notice}
      </div>
    </article>
  );
}
