// The coin shop page's parts: the balance, the member's rank bonus and monthly cap, the age question,
// the draw the member came for, and the purchase form (plan cards and payment methods as radio lists).
import { useId, useState } from 'react';
import { Form, useNavigate, useNavigation } from 'react-router';
import type { CoinPackView, PurchaseStanding } from '#modules/payments';
import { Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { CoinIcon, WarningIcon } from '~/components/icons';
import { formatCoins, formatYen } from '~/lib/numbers';
import { drawOptionLabel } from '~/components/gacha/labels';
import { packDrawPath, withDrawContext } from '~/lib/draw-context';
import type { CarriedDraw, PaymentMethodOption, WalletView } from './types';
import { CoinPackOption } from './CoinPackOption';

/** Said near the choice, and again on the confirmation, when another pack would end the 初回限定 offer. */
export const FIRST_PURCHASE_WARNING =
  '初回限定プランは初回購入時のみ選べます。他のプランを購入すると対象外になります。';

/** 「10連まであと…」: the draw the member came from, what is missing, and the way back to the pack. */
export function CarriedDrawNotice({ draw, shortfall }: { draw: CarriedDraw; shortfall: number }) {
  const label = drawOptionLabel(draw.count);
  return (
    <section
      aria-labelledby="shop-draw-title"
      className="flex flex-col gap-2 rounded-2xl border-2 border-primary-ink bg-white p-4 shadow-sm"
      data-testid="shop-draw-context"
    >
      <h2 id="shop-draw-title" className="text-sm font-black">{`「${draw.title}」の${label}に向けてコインを購入`}</h2>
      <p className="text-sm">
        {`${label}には${formatCoins(draw.cost)}コイン必要です。`}
        {shortfall > 0 ? (
          <b className="text-red-700">{`あと${formatCoins(shortfall)}コイン不足しています。`}</b>
        ) : (
          <b>所持コインで引けます。</b>
        )}
        {`購入が終わると、このオリパの${label}にすぐ戻れます。`}
      </p>
      <AppLink to={packDrawPath(draw)} className="self-start text-sm font-bold text-primary-ink underline">
        オリパに戻る
      </AppLink>
    </section>
  );
}

/** 所持コイン, paid and free apart. */
export function WalletSummary({
  wallet,
  paidCoinDays,
  freeCoinDays,
}: {
  wallet: WalletView;
  paidCoinDays: number;
  freeCoinDays: number;
}) {
  return (
    <section aria-labelledby="shop-wallet-title" className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm">
      <h2 id="shop-wallet-title" className="text-sm font-bold text-muted">
        所持コイン
      </h2>
      <p className="flex items-center gap-2 text-3xl font-black" data-testid="shop-balance">
        <CoinIcon className="size-7 text-coin" />
        {formatCoins(wallet.total)}
        <span className="text-sm">コイン</span>
      </p>
      <dl className="grid grid-cols-2 gap-2 text-center text-sm">
        <div className="rounded-xl bg-canvas py-2">
          <dt className="text-xs text-muted">有償コイン</dt>
          <dd className="font-black" data-testid="shop-balance-paid">
            {formatCoins(wallet.paid)}
          </dd>
        </div>
        <div className="rounded-xl bg-canvas py-2">
          <dt className="text-xs text-muted">無償コイン</dt>
          <dd className="font-black" data-testid="shop-balance-free">
            {formatCoins(wallet.free)}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-muted">
        有償コインの有効期限は購入から{paidCoinDays}日、無償コインは付与から{freeCoinDays}日です。
      </p>
    </section>
  );
}

/** The rank bonus and this month's cap (the minors' cap when the member declared being under 18). */
export function StandingCard({ standing }: { standing: PurchaseStanding }) {
  const ratio = standing.capJpy > 0 ? Math.min(1, standing.usedJpy / standing.capJpy) : 1;
  return (
    <section aria-labelledby="shop-standing-title" className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm">
      <h2 id="shop-standing-title" className="sr-only">
        ランク特典とご購入上限
      </h2>
      <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="shop-rank-bonus">
        <span className="rounded-full border border-primary-ink bg-white px-2.5 py-1 text-xs font-black text-primary-ink">
          {standing.rank.name}
        </span>
        {standing.rank.bonusPercent > 0 ? (
          <span className="font-bold">
            {standing.rank.name}会員：購入コインの{standing.rank.bonusPercent}%をボーナス
          </span>
        ) : (
          <span>
            {standing.rank.name}会員：ランクが上がると購入コインにボーナスが付きます。
            <AppLink to="/myrank" className="font-bold text-primary-ink underline">
              ランク特典を見る
            </AppLink>
          </span>
        )}
      </p>
      <div className="flex flex-col gap-1.5" data-testid="shop-cap">
        <p className="flex flex-wrap justify-between gap-x-3 text-sm">
          <span>
            {standing.declaredMinor ? '18歳未満の方の今月のご購入上限' : '今月のご購入上限'}{' '}
            <b>{formatYen(standing.capJpy)}</b>
          </span>
          <span>
            残り <b data-testid="shop-cap-remaining">{formatYen(standing.remainingJpy)}</b>
          </span>
        </p>
        <div
          className="h-2 overflow-hidden rounded-full bg-canvas"
          role="progressbar"
          aria-label="今月のご購入額"
          aria-valuemin={0}
          aria-valuemax={standing.capJpy}
          aria-valuenow={standing.usedJpy}
          aria-valuetext={`${formatYen(standing.usedJpy)} / ${formatYen(standing.capJpy)}`}
        >
          <div
            className={`h-full rounded-full ${ratio >= 0.9 ? 'bg-red-500' : 'bg-primary'}`}
            style={{ width: `${Math.round(ratio * 100)}%` }}
          />
        </div>
        <p className="text-xs text-muted">
          今月のご購入額 {formatYen(standing.usedJpy)}（お支払い手続き中のご注文を含みます。毎月1日にリセット）
          {standing.declaredMinor && '。18歳未満の方は保護者の方の同意を得てからご購入ください。'}
        </p>
        {standing.selfLimitJpy !== null && (
          <p className="text-xs" data-testid="shop-self-limit">
            {`ご自身で設定した今月の購入上限 ${formatYen(standing.selfLimitJpy)}（残り ${formatYen(Math.max(0, standing.selfLimitJpy - standing.usedJpy))}）`}{' '}
            <AppLink to="/mypage/settings/limits" className="font-bold text-primary-ink underline">
              利用上限の設定
            </AppLink>
          </p>
        )}
      </div>
    </section>
  );
}

/** 「18歳以上ですか」: asked once, before the first purchase. Posts intent=declare-age. */
export function AgeDeclarationForm({ minorCapJpy, error }: { minorCapJpy: number; error?: string | null }) {
  const navigation = useNavigation();
  const noteId = useId();
  const errorId = useId();
  const sending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'declare-age';
  return (
    <Form
      method="post"
      className="flex flex-col gap-3 rounded-2xl border-2 border-primary bg-white p-5 shadow-sm"
      data-testid="age-form"
    >
      <input type="hidden" name="intent" value="declare-age" />
      <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${noteId} ${errorId}` : noteId}>
        <legend className="mb-1 text-base font-black">
          年齢の確認<span className="ml-2 rounded bg-primary-ink px-1.5 py-0.5 text-xs text-white">必須</span>
        </legend>
        <p id={noteId} className="text-sm text-muted">
          ご購入の前に年齢を確認しています。18歳未満の方は1か月のご購入が{formatYen(minorCapJpy)}
          までとなり、保護者の方の同意が必要です。 一度お答えいただいた内容はご自身では変更できません。
        </p>
        {[
          { value: 'adult', label: '18歳以上です' },
          { value: 'minor', label: '18歳未満です' },
        ].map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 text-sm font-bold has-checked:border-primary-ink has-checked:bg-primary-soft"
          >
            <input type="radio" name="age" value={choice.value} required className="size-5 accent-primary-ink" />
            {choice.label}
          </label>
        ))}
      </fieldset>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-bold text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" loading={sending} fullWidth>
        回答する
      </Button>
    </Form>
  );
}

export interface CoinPackPickerProps {
  packs: CoinPackView[];
  methods: PaymentMethodOption[];
  /** The month's remaining cap: packs above it cannot be chosen. */
  remainingJpy: number;
  /** False before the age is declared or while purchases are held: the form cannot go on. */
  canPurchase: boolean;
  /** Why the member cannot go on (shown under the button). */
  blockedReason?: string | null;
  selected?: { pack: string | null; method: string | null };
  error?: string | null;
  /** The draw the member came for: carried to the checkout, and packs that cover it are marked. */
  draw?: CarriedDraw | null;
  /** Coins still missing for that draw (0 without one). */
  shortfall?: number;
}

/** お支払い方法: one radio per method the shop offers, the chosen one carried to the checkout's address. */
function PaymentMethodChoices({
  methods,
  chosen,
  onChoose,
}: {
  methods: PaymentMethodOption[];
  chosen: string | null;
  onChoose: (method: string) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-3 text-lg font-black">お支払い方法</legend>
      {methods.map((m) => (
        <label
          key={m.method}
          className="flex min-h-14 cursor-pointer items-center gap-3 rounded-xl border-2 border-line bg-white px-4 py-2.5 has-checked:border-primary-ink has-checked:bg-primary-soft"
          data-testid="payment-method"
        >
          <input
            type="radio"
            name="method"
            value={m.method}
            required
            defaultChecked={chosen === m.method}
            onChange={() => onChoose(m.method)}
            className="size-5 shrink-0 accent-primary-ink"
          />
          <span className="flex min-w-0 flex-col">
            <span className="text-sm font-bold">{m.label}</span>
            <span className="text-xs text-muted">{m.note}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Plan cards and payment methods; 「購入手続きへ」 opens /shop/checkout/{method}?pack={id}. Without
 * JavaScript the form is a GET of /shop, whose loader redirects there.
 */
export function CoinPackPicker({
  packs,
  methods,
  remainingJpy,
  canPurchase,
  blockedReason,
  selected,
  error,
  draw = null,
  shortfall = 0,
}: CoinPackPickerProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const choosable = (p: CoinPackView) => p.available && p.priceJpy <= remainingJpy;
  // On a first purchase the 初回限定 pack is the best deal there is: it is shown first and chosen to begin with.
  const firstOffer = packs.find((p) => p.firstPurchaseOnly && choosable(p)) ?? null;
  const [pack, setPack] = useState<string | null>(() =>
    selected?.pack && packs.some((p) => p.id === selected.pack && choosable(p))
      ? selected.pack
      : (firstOffer?.id ?? null),
  );
  const [method, setMethod] = useState<string | null>(() =>
    selected?.method && methods.some((m) => m.method === selected.method)
      ? selected.method
      : (methods[0]?.method ?? null),
  );
  const blockedId = useId();
  const going = navigation.state === 'loading' && Boolean(navigation.location?.pathname.startsWith('/shop/checkout/'));
  const chosen = packs.find((p) => p.id === pack);
  const losesFirstOffer = Boolean(firstOffer && chosen && chosen.id !== firstOffer.id);
  const warningId = useId();
  return (
    <Form
      method="get"
      action="/shop"
      className="flex flex-col gap-5"
      aria-label="コインの購入"
      onSubmit={(event) => {
        if (!pack || !method || !canPurchase) return;
        event.preventDefault();
        navigate(withDrawContext(`/shop/checkout/${method}?pack=${encodeURIComponent(pack)}`, draw));
      }}
    >
      {draw && (
        <>
          <input type="hidden" name="gacha" value={draw.gachaId} />
          <input type="hidden" name="count" value={draw.count} />
        </>
      )}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-3 text-lg font-black">コインパックを選ぶ</legend>
        <ul className="grid grid-cols-2 gap-2.5 sm:grid-cols-3 lg:grid-cols-4">
          {packs.map((p) => (
            <CoinPackOption
              key={p.id}
              pack={p}
              checked={pack === p.id}
              onChoose={() => setPack(p.id)}
              choosable={choosable(p)}
              remainingJpy={remainingJpy}
              featured={p.id === firstOffer?.id}
              draw={draw}
              shortfall={shortfall}
            />
          ))}
        </ul>
        {/* Right under the plans, where the member has just tapped (announced when it appears). */}
        <div aria-live="polite">
          {losesFirstOffer && firstOffer && (
            <div
              className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              data-testid="first-offer-warning"
            >
              <p className="flex gap-2 font-bold">
                <WarningIcon className="mt-0.5 size-4 shrink-0" />
                {FIRST_PURCHASE_WARNING}
              </p>
              <button
                type="button"
                onClick={() => setPack(firstOffer.id)}
                className="min-h-11 self-start rounded-full border border-amber-400 bg-white px-4 text-sm font-bold text-amber-900 hover:bg-amber-100"
              >
                {`初回限定プラン（${formatYen(firstOffer.priceJpy)}）に戻す`}
              </button>
            </div>
          )}
        </div>
      </fieldset>

      <PaymentMethodChoices methods={methods} chosen={method} onChoose={setMethod} />

      <div className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm md:sticky md:bottom-4">
        <p className="text-sm" aria-live="polite" data-testid="purchase-summary">
          {chosen ? (
            <>
              選択中：<b>{chosen.name}</b>（{formatYen(chosen.priceJpy)}・合計{formatCoins(chosen.totalCoins)}コイン）
            </>
          ) : (
            'コインパックを選んでください'
          )}
        </p>
        {losesFirstOffer && (
          <p id={warningId} className="flex gap-1.5 text-xs font-bold text-amber-900">
            <WarningIcon className="size-4 shrink-0" />
            このプランを購入すると、初回限定プランは対象外になります。
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm font-bold text-red-700">
            {error}
          </p>
        )}
        <Button
          type="submit"
          size="lg"
          fullWidth
          loading={going}
          disabled={!canPurchase}
          aria-describedby={
            [!canPurchase && blockedReason ? blockedId : null, losesFirstOffer ? warningId : null]
              .filter(Boolean)
              .join(' ') || undefined
          }
          data-testid="go-checkout"
        >
          購入手続きへ
        </Button>
        {!canPurchase && blockedReason && (
          <p id={blockedId} className="text-center text-xs text-muted">
            {blockedReason}
          </p>
        )}
      </div>
    </Form>
  );
}
