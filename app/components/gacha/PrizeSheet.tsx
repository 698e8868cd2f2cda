// One prize's sheet: its details and its choices (convert or keep, 保管 first for A賞 and better; a kept
// card has its own conversion with its own confirmation), and the sheets' cancel link.
import { Form, Link } from 'react-router';
import { Image } from '~/components/Image';
import { Button, ButtonLink } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { formatCoins } from '~/lib/numbers';
import { formatRemainingShort, formatMemberDateTime, isDeadlineNear } from '#modules/kernel/dates';
import type { PrizeActionData, PrizeIntent } from '~/controllers/prize-actions.server';
import { TIER_CHIP } from './labels';
import { PRIZE_STATUS_LABEL, type PrizeView } from './PrizeList';

/** The card's picture, tier, rarity, pack, value, state and automatic conversion time. */
function PrizeDetails({ prize, now }: { prize: PrizeView; now: number }) {
  const left = prize.status === 'pending' ? formatRemainingShort(prize.decideBy, now) : '';
  return (
    <div className="flex gap-3">
      <Image
        src={prize.imagePath}
        alt={`${prize.cardName}のカード画像`}
        width={120}
        height={168}
        className="aspect-[5/7] h-auto w-28 shrink-0 rounded-lg object-contain"
      />
      <dl className="flex flex-col gap-1">
        <div>
          <dt className="sr-only">賞</dt>
          <dd>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[prize.effect] ?? TIER_CHIP.normal}`}
            >
              {prize.tierLabel}
            </span>
          </dd>
        </div>
        {(prize.rarity || prize.cardGrade) && (
          <div>
            <dt className="sr-only">レアリティ・鑑定</dt>
            <dd className="text-xs text-muted">{[prize.rarity, prize.cardGrade].filter(Boolean).join('・')}</dd>
          </div>
        )}
        {prize.gachaTitle && (
          <div>
            <dt className="sr-only">オリパ</dt>
            <dd className="text-xs text-muted">{prize.gachaTitle}</dd>
          </div>
        )}
        <div>
          <dt className="inline text-muted">交換 </dt>
          <dd className="inline font-black">{formatCoins(prize.conversionValue)}コイン</dd>
        </div>
        <div>
          <dt className="inline text-muted">状態 </dt>
          <dd className="inline font-bold">{PRIZE_STATUS_LABEL[prize.status]}</dd>
        </div>
        {prize.status === 'pending' && (
          <div className={`text-xs ${isDeadlineNear(prize.decideBy, now) ? 'text-red-700' : 'text-muted'}`}>
            <dt className="inline">自動交換 </dt>
            <dd className="inline">
              <time dateTime={prize.decideBy}>{formatMemberDateTime(prize.decideBy)}</time>
              {left ? `（${left}）` : ''}
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

/** One card's sheet: its details and its choices. Converting a kept card takes a second, own confirmation. */
export function PrizeSheet({
  prize,
  now,
  confirmKept,
  busy,
  pendingIntent,
  actionData,
  rare,
  undoSeconds,
  closeHref,
  confirmKeptHref,
  onClose,
  onConfirmKept,
}: {
  prize: PrizeView;
  now: number;
  confirmKept: boolean;
  busy: boolean;
  pendingIntent: PrizeIntent | null;
  actionData: PrizeActionData | undefined;
  /** A rare tier (A賞 and better): 保管 is the first choice. */
  rare: boolean;
  undoSeconds: number;
  closeHref: string;
  confirmKeptHref: string;
  onClose: () => void;
  onConfirmKept: () => void;
}) {
  const title = confirmKept
    ? `保管中の「${prize.cardName}」を${formatCoins(prize.conversionValue)}コインに交換します`
    : prize.cardName;
  // 保管 first for a rare tier (A賞 and better), else the conversion (decision 057).
  const keepForm = (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value="keep" />
      <input type="hidden" name="prizeIds" value={prize.prizeId} />
      <Button
        type="submit"
        variant={rare ? 'primary' : 'secondary'}
        size={rare ? 'lg' : 'md'}
        fullWidth
        loading={pendingIntent === 'keep'}
        disabled={busy}
        data-testid="keep-one"
      >
        発送用に保管する
      </Button>
    </Form>
  );
  const convertForm = (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value="convert" />
      <input type="hidden" name="prizeIds" value={prize.prizeId} />
      <Button
        type="submit"
        variant={rare ? 'plain' : 'primary'}
        size={rare ? 'md' : 'lg'}
        fullWidth
        loading={pendingIntent === 'convert'}
        disabled={busy}
        data-testid="convert-one"
      >
        {formatCoins(prize.conversionValue)}コインに交換する
      </Button>
    </Form>
  );
  return (
    <Sheet title={title} onClose={onClose} busy={busy} testId="prize-sheet">
      <div className="mt-3 flex flex-col gap-3 text-sm">
        {!confirmKept && <PrizeDetails prize={prize} now={now} />}
        <ActionError actionData={actionData} intent={null} busy={busy} />
        {prize.status === 'pending' && (
          <div className="flex flex-col gap-3">
            {rare && (
              <p className="rounded-xl bg-amber-50 p-3 font-bold text-amber-950" data-testid="rare-note">
                {prize.tierLabel}は上位の賞です。発送用に保管しておけば、あとで発送を申し込めます。
              </p>
            )}
            {rare ? keepForm : null}
            {convertForm}
            {rare ? null : keepForm}
          </div>
        )}
        {prize.status === 'pending' && (
          <p className="text-xs text-muted">
            交換しても{undoSeconds}
            秒間は「元に戻す」で取り消せます。保管したカードは保管期限まで自動交換されず、獲得商品から発送を申し込めます。
          </p>
        )}
        {prize.status === 'kept' && !confirmKept && (
          <>
            <p className="rounded-xl bg-emerald-50 p-3 text-emerald-900">
              このカードは発送用に保管中です。自動交換されません。
            </p>
            <ButtonLink
              to={confirmKeptHref}
              replace
              preventScrollReset
              variant="plain"
              fullWidth
              data-testid="convert-kept-start"
              onClick={(event) => {
                event.preventDefault();
                onConfirmKept();
              }}
            >
              保管をやめてコインに交換…
            </ButtonLink>
          </>
        )}
        {prize.status === 'kept' && confirmKept && (
          <>
            <p className="rounded-xl border-2 border-amber-500 bg-amber-50 p-3 font-bold text-amber-950">
              {prize.tierLabel}「{prize.cardName}」は発送用に保管中のカードです。交換すると発送できなくなります。
            </p>
            <p className="text-xs text-muted">
              交換しても{undoSeconds}秒間は「元に戻す」で取り消せます。その後は発送できません。
            </p>
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="convertKept" />
              <input type="hidden" name="prizeIds" value={prize.prizeId} />
              <Button
                type="submit"
                size="lg"
                variant="danger"
                fullWidth
                loading={pendingIntent === 'convertKept'}
                data-testid="confirm-convert-kept"
              >
                交換する
              </Button>
            </Form>
          </>
        )}
        <CancelLink href={closeHref} onClose={onClose} busy={busy} label={confirmKept ? 'やめる' : '閉じる'} />
      </div>
    </Sheet>
  );
}

export function CancelLink({
  href,
  onClose,
  busy,
  label = 'キャンセル',
}: {
  href: string;
  onClose: () => void;
  busy: boolean;
  label?: string;
}) {
  return (
    <Link
      to={href}
      replace
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="flex min-h-11 items-center justify-center rounded-full text-sm font-bold text-muted hover:bg-canvas"
      aria-disabled={busy || undefined}
    >
      {label}
    </Link>
  );
}

/** A refusal, inside the sheet that asked for it. */
function ActionError({
  actionData,
  intent,
  busy,
}: {
  actionData: PrizeActionData | undefined;
  intent: PrizeIntent | null;
  busy: boolean;
}) {
  if (busy || !actionData || actionData.ok || (intent && actionData.intent !== intent)) return null;
  return (
    <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-bold text-red-700">
      {actionData.message}
    </p>
  );
}
