// The draw buttons (1回 / 10連 / 100連) and the confirmation: cost, balance and balance after.
// Without JavaScript the buttons open the confirmation through the URL (?confirm=10); with it, in
// place. The confirmation's form carries a one-time idempotency key, so a double tap draws once.
// Each button says the total (「10連 5,000コイン」) and, when the balance is short, what is missing;
// it still opens the confirmation, whose 「コインを購入する」 carries the pack and the count to the
// shop (and 「会員登録して引く」 or 「ログインして引く」 brings a visitor back to the same confirmation).
import { useEffect, useId, useRef, useState } from 'react';
import { Form, Link, useLocation, useNavigation } from 'react-router';
import { Button, ButtonLink } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import { drawOptionLabel } from './labels';
import { withDrawContext } from '~/lib/draw-context';
import { jstDayLabel, type SelfLimitSummaryView } from '~/components/SelfLimitNotice';
import { useIsPersonalShell } from '~/lib/root-data';
import { drawMissingMarkers, drawMissingTexts } from '#modules/kernel/personal-holes';

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

export function DrawPanel(props: DrawPanelProps) {
  const { price, options, remaining, onSale, compact, balance } = props;
  const [open, setOpen] = useState<number | null>(props.confirmFromUrl);
  const idBase = useId();
  const shell = useIsPersonalShell();
  const location = useLocation();
  useEffect(() => setOpen(props.confirmFromUrl), [props.confirmFromUrl]);
  useEffect(() => {
    if (props.error) setOpen((current) => current);
  }, [props.error]);
  return (
    <div className="flex flex-col gap-1.5">
      <Form
        method="get"
        replace
        preventScrollReset
        className={`grid gap-2 ${options.length >= 3 ? 'grid-cols-3' : options.length === 2 ? 'grid-cols-2' : 'grid-cols-1'}`}
      >
        {options.map((count) => {
          const short = remaining < count;
          const disabled = !onSale || short;
          // Members only: what the balance lacks for this button (visitors see the price alone). The line is
          // there for every member, shown by their coins: a members' shell fills it per member (decision 077).
          const missing =
            balance === null || disabled
              ? null
              : shell
                ? drawMissingMarkers(price * count)
                : drawMissingTexts(price * count, balance);
          const missingId = `${idBase}-missing-${count}`;
          return (
            <div key={count} className="flex min-w-0 flex-col gap-0.5">
              <Button
                type="submit"
                name="confirm"
                value={String(count)}
                size="lg"
                // The deeper pink: the small price line under the label must reach AA contrast too. A button
                // that cannot be used is plain grey, so nobody mistakes it for a live one.
                className={`!px-1 flex-col !gap-0 leading-tight ${disabled ? '!bg-slate-300 !text-slate-700 disabled:!opacity-100' : '!bg-primary-ink hover:!bg-primary-dark'} ${compact ? '!text-lg' : ''}`}
                disabled={disabled}
                aria-describedby={missing ? missingId : undefined}
                data-testid={`draw-option-${count}`}
                onClick={(event) => {
                  event.preventDefault();
                  setOpen(count);
                }}
              >
                <span>{drawOptionLabel(count)}</span>
                <span className="text-xs font-bold">{`${formatCoins(price * count)}コイン`}</span>
              </Button>
              {missing && (
                // On a narrow phone a long amount breaks between the number and 「コイン不足」, never inside a word.
                <p
                  id={missingId}
                  className={`${missing['draw.missingDisplay']} text-center text-xs font-bold leading-tight tracking-tight text-red-700`}
                  data-testid={`draw-missing-${count}`}
                >
                  <span className="whitespace-nowrap">{missing['draw.missing']}</span>
                  <span className="whitespace-nowrap">{missing['draw.missingUnit']}</span>
                </p>
              )}
            </div>
          );
        })}
      </Form>
      {/* The phone bar says a closed pack's reason in its own top line. */}
      {!onSale && !(compact && props.closedReason) && (
        <p className="text-center text-xs font-bold text-muted" data-testid="draw-closed-reason">
          {props.closedReason ?? 'このオリパは販売していません。'}
        </p>
      )}
      {open !== null && (
        <ConfirmDialog {...props} count={open} onClose={() => setOpen(null)} cancelHref={location.pathname} />
      )}
    </div>
  );
}

/** A fresh UUID (v4) for one draw, made in the browser. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (a shop tried over plain http on a LAN) randomUUID is missing.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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

function ConfirmDialog({
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
}: DrawPanelProps & { count: number; onClose: () => void; cancelHref: string }) {
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
