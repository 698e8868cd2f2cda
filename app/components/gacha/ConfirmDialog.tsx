// The draw's confirmation sheet (cost, balance and balance after, and 引く with a one-time key), the visitor's
// way to draw and what the member's own limits stop. Its own module: in the browser the pack page loads it
// after hydration (a tap opens it), so the page's first script is smaller (bench/budgets/pages.json); the
// server renders it at once through ServerConfirmDialog (app/entry.server.tsx), so the no-JavaScript sheet
// (?confirm=N) is in the HTML.
import { useEffect, useId, useRef, useState } from 'react';
import { Form, Link, useLocation, useNavigation } from 'react-router';
import { Button, ButtonLink } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import { drawOptionLabel } from './labels';
import { withDrawContext } from '~/lib/draw-context';
import { jstDayLabel, type SelfLimitSummaryView } from '~/components/SelfLimitNotice';

export interface DrawPanelProps {
  /** The pack's id, carried to the shop when coins are short. */
  gachaId: string;
  price: number;
  options: number[];
  remaining: number;
  onSale: boolean;
  /** Coins the member holds (paid + free), or null for a visitor. */
  balance: number | null;
  /** The count whose confirmation is open from the URL (?confirm=N), if any. */
  confirmFromUrl: number | null;
  /** The draw's one-time key; '' in a members' shell, where the sheet makes its own when it opens. */
  idempotencyKey: string;
  staff: boolean;
  error?: { message: string; code: string } | null;
  /** The phone's sticky bar: the same buttons, tighter. */
  compact?: boolean;
  /** Why nothing can be drawn any more (完売, 販売終了); the generic line otherwise. */
  closedReason?: string | null;
  /** The member's own limits (decision 035): the sheet says an exclusion or a reached limit instead of 引く. */
  selfLimits?: SelfLimitSummaryView | null;
}

/** Why the member's own limits stop this draw (or its purchase of coins), in the words of modules/refusals. */
export function selfLimitBlock(selfLimits: SelfLimitSummaryView | null | undefined, cost: number, short: boolean) {
  if (!selfLimits) return null;
  if (selfLimits.excludedLastDay)
    return `自己除外期間中（${jstDayLabel(selfLimits.excludedLastDay)}まで）は購入・ガチャができません。`;
  const draw = selfLimits.draw;
  if (draw && cost > draw.remaining)
    return `今月のガチャ消費上限（${formatCoins(draw.limit)}コイン）に達しています（残り ${formatCoins(draw.remaining)}コイン）。`;
  const purchase = selfLimits.purchase;
  if (short && purchase && purchase.remaining === 0)
    return `今月の購入上限（¥${purchase.limit.toLocaleString('ja-JP')}）に達しています。ご自身で設定した上限のため、今月はこれ以上コインを購入できません。`;
  return null;
}

/**
 * A fresh UUID (v4) for one draw, made in the browser. A member is signed in only where cookies marked Secure
 * are kept (https, or localhost while developing): a secure context, where randomUUID is always there.
 */
function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** A visitor's way to draw: sign up (the usual first visit) or sign in, then back to this confirmation. */
function VisitorDrawLinks({ count }: { count: number }) {
  const location = useLocation();
  // After signing in (or signing up) the visitor lands on this pack with this count's confirmation open.
  const back = encodeURIComponent(`${location.pathname}?confirm=${count}`);
  const signInHref = `/auth/sign_in?redirect=${back}`;
  const signUpHref = `/auth/sign_up?redirect=${back}`;
  return (
    <div className="flex flex-col gap-2" data-testid="visitor-draw">
      <p className="text-center text-sm text-muted">引くには会員登録（無料）またはログインが必要です。</p>
      <div className="grid grid-cols-2 gap-2">
        <ButtonLink
          to={signUpHref}
          size="lg"
          fullWidth
          // 16 px labels side by side: the deeper pink keeps white text at AA contrast.
          className="!bg-primary-ink !px-2 !text-base hover:!bg-primary-dark"
          data-testid="sign-up-to-draw"
        >
          会員登録して引く
        </ButtonLink>
        <ButtonLink
          to={signInHref}
          size="lg"
          variant="secondary"
          fullWidth
          className="!px-2 !text-base"
          data-testid="sign-in-to-draw"
        >
          ログインして引く
        </ButtonLink>
      </div>
    </div>
  );
}

export type ConfirmDialogProps = DrawPanelProps & { count: number; onClose: () => void; cancelHref: string };

export function ConfirmDialog({
  gachaId,
  count,
  price,
  balance,
  idempotencyKey,
  onClose,
  cancelHref,
  staff,
  error,
  remaining,
  selfLimits,
}: ConfirmDialogProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  // A members' shell carries no key (one page for every member): each opened sheet makes its own.
  const [drawKey] = useState(() => idempotencyKey || newIdempotencyKey());
  const cost = price * count;
  const after = balance === null ? null : balance - cost;
  const limited = selfLimitBlock(selfLimits, cost, after !== null && after < 0);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  useEffect(() => {
    titleRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !submitting) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, submitting]);
  return (
    <div
      className="fixed inset-0 z-overlay flex items-end justify-center bg-ink/60 p-0 sm:items-center sm:p-4"
      role="presentation"
      onClick={(e) => e.target === e.currentTarget && !submitting && onClose()}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="w-full max-w-md rounded-t-3xl bg-white p-5 pb-8 shadow-xl sm:rounded-3xl sm:pb-5"
      >
        <h2 id={titleId} ref={titleRef} tabIndex={-1} className="text-center text-lg font-black outline-none">
          {`${drawOptionLabel(count)}を引きますか？`}
        </h2>
        <dl className="mt-4 divide-y divide-line rounded-2xl bg-canvas px-4 text-sm">
          <div className="flex justify-between py-2.5">
            <dt>消費コイン</dt>
            <dd className="font-black" data-testid="confirm-cost">
              {formatCoins(cost)}
            </dd>
          </div>
          {balance !== null && (
            <>
              <div className="flex justify-between py-2.5">
                <dt>所持コイン</dt>
                <dd className="font-bold">{formatCoins(balance)}</dd>
              </div>
              <div className="flex justify-between py-2.5">
                <dt>引いた後</dt>
                <dd className={`font-black ${after! < 0 ? 'text-red-700' : ''}`} data-testid="confirm-after">
                  {after! < 0 ? '不足' : formatCoins(after!)}
                </dd>
              </div>
            </>
          )}
        </dl>
        {error && (
          <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-sm font-bold text-red-700">
            {error.message}
          </p>
        )}
        <div className="mt-5 flex flex-col gap-2">
          {balance === null ? (
            // A visitor new to the shop signs up from here (the first visit is the usual case); a member signs in.
            <VisitorDrawLinks count={count} />
          ) : staff ? (
            <p className="rounded-xl bg-canvas p-3 text-center text-sm">スタッフアカウントではガチャを引けません。</p>
          ) : limited ? (
            <div className="flex flex-col gap-2" data-testid="self-limit-block">
              <p className="rounded-xl bg-sky-50 p-3 text-center text-sm font-bold text-sky-950">{limited}</p>
              <Link
                to="/mypage/settings/limits"
                className="text-center text-sm font-bold text-primary-ink underline underline-offset-2"
              >
                利用上限を確認する
              </Link>
            </div>
          ) : remaining < count ? (
            <p className="rounded-xl bg-canvas p-3 text-center text-sm">
              残り{formatCoins(remaining)}口のため、{drawOptionLabel(count)}は引けません。
            </p>
          ) : after! < 0 ? (
            <>
              <p className="text-center text-sm font-bold text-red-700">
                コインが{formatCoins(-after!)}枚不足しています。
              </p>
              <ButtonLink to={withDrawContext('/shop', { gachaId, count })} size="lg" fullWidth data-testid="buy-coins">
                コインを購入する
              </ButtonLink>
            </>
          ) : (
            <Form method="post" replace>
              <input type="hidden" name="count" value={count} />
              <input type="hidden" name="idempotencyKey" value={drawKey} />
              <Button type="submit" size="lg" fullWidth loading={submitting} data-testid="confirm-draw">
                引く
              </Button>
            </Form>
          )}
          <Link
            to={cancelHref}
            replace
            preventScrollReset
            onClick={(e) => {
              e.preventDefault();
              if (!submitting) onClose();
            }}
            className="flex min-h-11 items-center justify-center rounded-full text-sm font-bold text-muted hover:bg-canvas"
            aria-disabled={submitting || undefined}
          >
            キャンセル
          </Link>
        </div>
      </div>
    </div>
  );
}
