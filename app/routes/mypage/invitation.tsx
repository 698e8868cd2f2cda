// /mypage/invitation (友達招待, decision 038): the member's own code and link, share buttons (LINE, X,
// copy), this month's rewards against the cap, the invitees and their state, the rules in plain words,
// and for a new member without an inviter, a form to type the friend's code.
import { useEffect } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/invitation';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert } from '~/components/FormField';
import { CopyLink } from '~/components/CopyLink';
import { ShareButtons } from '~/components/ShareButtons';
import { formatCoins } from '~/lib/numbers';
import { friendInvitationEvent, track } from '~/lib/analytics';
import { invitationPageAction, invitationPageLoader, type InvitationActionData } from '~/controllers/invitation.server';

export const handle = { title: '友達招待' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return invitationPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return invitationPageAction(context.get(shopRequestContext), request);
}

const STATE_TONE: Record<string, string> = {
  rewarded: 'bg-emerald-50 text-emerald-800',
  capped: 'bg-amber-50 text-amber-900',
  refused_self: 'bg-zinc-100 text-zinc-700',
  refused_suspicious: 'bg-red-50 text-red-800',
};

function EnterCode({ typedCode, result }: { typedCode: string; result: InvitationActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'enter-code';
  return (
    <section aria-labelledby="enter-code" className="rounded-2xl bg-white p-4 shadow-sm">
      <h2 id="enter-code" className="text-base font-bold">
        招待コードをお持ちの方
      </h2>
      <p className="mt-1 text-sm text-muted">
        お友達から招待コードを受け取っている場合は、会員登録から72時間以内・初回購入の前までに入力してください。
      </p>
      <Form method="post" className="mt-3 flex flex-col gap-2">
        <input type="hidden" name="intent" value="enter-code" />
        <label htmlFor="invitation-code" className="text-sm font-bold">
          招待コード（8文字）
        </label>
        <input
          id="invitation-code"
          name="code"
          defaultValue={typedCode}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={20}
          required
          className="min-h-11 rounded-xl border border-line px-3 text-base tracking-widest uppercase"
          aria-describedby={result && !result.ok ? 'invitation-code-error' : undefined}
        />
        {result && !result.ok ? (
          <p id="invitation-code-error" role="alert" className="text-sm font-bold text-red-700">
            {result.message}
          </p>
        ) : null}
        <Button type="submit" loading={busy}>
          登録する
        </Button>
      </Form>
    </section>
  );
}

interface RulesData {
  rewardCoins: number;
  claimDays: number;
  freeCoinDays: number;
  month: { cap: number };
}

/** The reward rules in plain words (members and visitors alike). */
function InvitationRules({ rules: view }: { rules: RulesData }) {
  const coins = formatCoins(view.rewardCoins);
  return (
    <section aria-labelledby="rules" className="rounded-2xl bg-white p-4 text-sm leading-relaxed shadow-sm">
      <h2 id="rules" className="mb-2 text-base font-bold">
        特典のルール
      </h2>
      <ol className="list-decimal space-y-1 pl-5">
        <li>招待リンクを開いたお友達が、そのまま会員登録します（招待コードの入力でも登録できます）。</li>
        <li>お友達が電話番号認証を済ませ、はじめてコインを購入します。</li>
        <li>
          両方がそろうと、お友達とあなたの両方に
          {view.rewardCoins > 0 ? `${coins}無償コイン` : '特典'}
          がメールボックスに届きます。受け取りは{view.claimDays}日以内にお願いします。
        </li>
      </ol>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-muted">
        <li>
          特典を受け取れるのは、招待したお友達1人につき1回です。招待する側は毎月{view.month.cap}
          人まで（日本時間の1日から月末まで）。上限を超えた分は「上限のため対象外」になります。
        </li>
        <li>ご自身の別アカウントへの招待、同じ電話番号・同じ端末でのご登録は特典の対象外です。</li>
        <li>無償コインの有効期限は、受け取りから{view.freeCoinDays}日です。</li>
      </ul>
    </section>
  );
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as InvitationActionData | undefined;
  useEffect(() => {
    if (result?.ok) track(friendInvitationEvent(result.event.invitee, result.event.inviter));
  }, [result]);

  if (!loaderData.signedIn) {
    return (
      <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
        <PageHeading title="友達招待" lead="お友達を招待して、一緒にコインをもらおう" />
        <EmptyState
          title="ログインすると招待コードが表示されます"
          action={
            <ButtonLink to="/auth/sign_in?redirect=%2Fmypage%2Finvitation" size="lg">
              ログイン
            </ButtonLink>
          }
        >
          あなたの招待コードと招待リンク、招待したお友達の状況はログイン後に確認できます。
        </EmptyState>
        <InvitationRules rules={loaderData.rules} />
      </div>
    );
  }
  if (loaderData.staff) {
    return (
      <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
        <PageHeading title="友達招待" />
        <EmptyState title="スタッフアカウントは友達招待の対象外です">
          招待コードの発行と特典は会員の方のみご利用いただけます。
        </EmptyState>
      </div>
    );
  }
  const view = loaderData;
  const coins = formatCoins(view.rewardCoins);
  const full = view.month.cap > 0 && view.month.rewarded >= view.month.cap;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading
        title="友達招待"
        lead={
          view.rewardCoins > 0
            ? `お友達を招待して、お友達とあなたの両方に${coins}コインをプレゼント`
            : 'お友達を招待して、一緒にオリパを楽しもう'
        }
      />
      {result?.ok ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
          {result.message}
        </p>
      ) : null}

      <section aria-labelledby="my-code" className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="my-code" className="text-base font-bold">
          あなたの招待コード
        </h2>
        <p className="text-center text-3xl font-black tracking-[0.3em]" data-testid="invitation-code">
          {view.code}
        </p>
        <CopyLink link={view.link} />
        <ShareButtons share={view.share} />
      </section>

      <section aria-labelledby="this-month" className="rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="this-month" className="text-base font-bold">
          {view.month.label}の招待特典
        </h2>
        <p className="mt-2 text-2xl font-black" data-testid="invitation-month-count">
          {view.month.rewarded}
          <span className="text-base font-bold text-muted"> / {view.month.cap}人</span>
        </p>
        <p className="mt-1 text-sm text-muted">
          {full
            ? '今月の特典の上限に達しました。来月1日（日本時間）から、また特典の対象になります。'
            : `今月はあと${view.month.cap - view.month.rewarded}人まで特典の対象です。`}
          {`これまでに${view.totals.invited}人を招待し、${view.totals.rewarded}人分の特典を受け取りました。`}
        </p>
      </section>

      {view.invitedBy ? (
        <p className="rounded-xl bg-primary-soft px-4 py-3 text-sm">
          {`あなたは${view.invitedBy.name}さんの招待で登録しました（${view.invitedBy.stateLabel}）。`}
        </p>
      ) : null}
      {view.canEnterCode ? <EnterCode typedCode={view.typedCode} result={result} /> : null}
      {!view.canEnterCode && result && !result.ok ? <FormAlert message={result.message} /> : null}

      <section aria-labelledby="invitees">
        <h2 id="invitees" className="mb-2 text-base font-bold">
          招待したお友達
        </h2>
        {view.invitees.length === 0 ? (
          <EmptyState title="まだ招待したお友達はいません">
            招待リンクからお友達が登録すると、ここに表示されます。
          </EmptyState>
        ) : (
          <ul className="divide-y divide-line rounded-2xl bg-white shadow-sm" aria-label="招待したお友達">
            {view.invitees.map((invitee, i) => (
              <li key={i} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="min-w-0">
                  <span className="block truncate font-bold">{invitee.name}</span>
                  <span className="block text-xs text-muted">
                    {`${invitee.joinedOn} 登録 ・ 電話番号認証${invitee.phoneVerified ? '済み' : 'まだ'} ・ 初回購入${invitee.purchased ? '済み' : 'まだ'}`}
                  </span>
                </span>
                <span
                  className={`shrink-0 rounded-full px-3 py-1 text-xs font-bold ${STATE_TONE[invitee.state] ?? 'bg-primary-soft text-primary-dark'}`}
                >
                  {invitee.stateLabel}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <InvitationRules rules={view} />
    </div>
  );
}
