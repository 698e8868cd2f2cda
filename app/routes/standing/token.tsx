// /standing/:token: the statement a banned member's mail links to (decision 084). A ban ends every session,
// so the mailed link (a 256-bit token, kept only as its hash, for APPEAL_WINDOW_DAYS + 1 days) shows the
// reason category, the coins and prizes, and takes the one appeal of its own restriction; while a closing shop
// takes 払戻し applications, that member's application too (decision 085) — nothing else.
// noindex; a dead link says so and where to ask instead.
import type { Route } from './+types/token';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { PageHeading } from '~/components/PageFrame';
import { StandingStatement } from '~/components/standing/StandingStatement';
import { RefundApplication } from '~/components/closure/RefundApplication';
import type { RefundActionData } from '~/controllers/closure-refund.server';
import { REFUND_INTENT } from '~/lib/standing-forms';
import { standingLinkAction, standingLinkLoader, type StandingActionData } from '~/controllers/standing.server';

export const handle = { title: 'アカウントの利用制限と明細' };

export async function loader({ params, context }: Route.LoaderArgs) {
  return standingLinkLoader(context.get(shopRequestContext), params.token);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return standingLinkAction(context.get(shopRequestContext), request, params.token);
}

export default function StandingByLink({ loaderData, actionData }: Route.ComponentProps) {
  // The page takes two posts: the appeal answers `ok`, the 払戻し application does not.
  const answer = actionData as StandingActionData | RefundActionData | undefined;
  const appealAnswer = answer && 'ok' in answer ? answer : undefined;
  const refundAnswer = answer && !('ok' in answer) ? answer : undefined;
  const { refund } = loaderData;
  const refundClosure = refund?.closure;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading
        title="アカウントの利用制限と明細"
        lead={
          loaderData.statement
            ? '制限の理由の区分と、お持ちのコイン・獲得商品の明細です。このページは、お送りしたメールのリンクからだけ開けます。'
            : undefined
        }
      />
      {loaderData.statement ? (
        <>
          {refund && refundClosure ? (
            <section aria-labelledby="standing-refund" className="flex flex-col gap-3" data-testid="standing-refund">
              <div className="rounded-2xl bg-amber-50 p-4 text-sm">
                <h2 id="standing-refund" className="text-base font-bold">
                  閉店にともなう払戻しのお申し込み
                </h2>
                <p className="mt-1">
                  {`ご利用を停止していても、未使用の有償コインは1コイン1円で払い戻します。申出期限：${refundClosure.refundDeadlineText}（日本時間）。このページから振込先の口座をご登録ください。`}
                </p>
              </div>
              <RefundApplication
                data={{ ...refund, closure: refundClosure }}
                answer={refundAnswer}
                intent={REFUND_INTENT}
              />
            </section>
          ) : null}
          <StandingStatement statement={loaderData.statement} answer={appealAnswer} />
        </>
      ) : (
        <section className="rounded-2xl bg-white p-5 text-sm shadow-sm" data-testid="standing-link-dead">
          <p className="font-bold">このリンクは無効か、有効期限が切れています。</p>
          <p className="mt-2">
            新しいリンクが必要な場合は、
            <AppLink to="/contact" className="text-primary-ink underline underline-offset-2">
              お問い合わせフォーム
            </AppLink>
            （種類「利用制限への異議申し立て」）からご連絡ください。ご登録のメールアドレスあてにお送りします。
          </p>
        </section>
      )}
    </div>
  );
}
