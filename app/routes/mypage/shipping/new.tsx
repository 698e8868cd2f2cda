// /mypage/shipping/new: a shipping request in two steps. Choose the cards (undecided or kept) and the
// address, then confirm: the cards, the address, the fee and the 発送予定日, with one button. The
// confirmation carries one request key, so a double tap or a retry makes one request.
import { useEffect, useState } from 'react';
import { Form, useLocation, useNavigation } from 'react-router';
import type { Route } from './+types/new';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { Image } from '~/components/Image';
import { ShippingCards } from '~/components/shop/ShippingCards';
import { formatCoins } from '~/lib/numbers';
import {
  PrerequisiteChecklist,
  PrerequisiteSheets,
  type PrerequisiteSheet,
} from '~/components/shipping/ShippingPrerequisites';
import type { PrerequisiteActionData } from '~/controllers/shipping-prerequisites.server';
import { newShippingAction, newShippingLoader, type NewShippingActionData } from '~/controllers/shipping-pages.server';

export const handle = { title: '発送の申し込み' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return newShippingLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return newShippingAction(context.get(shopRequestContext), request);
}

const jaDate = (jst: string) => {
  const [y, m, d] = jst.split('-').map(Number);
  const weekday = '日月火水木金土'[new Date(Date.UTC(y!, m! - 1, d!)).getUTCDay()];
  return `${y}年${m}月${d}日（${weekday}）`;
};

export default function NewShipping({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const answer = actionData as NewShippingActionData | undefined;
  if (loaderData.step === 'confirm') {
    const { quote, address, idempotencyKey, backHref } = loaderData;
    const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
    return (
      <div className="flex flex-col gap-4 pb-8">
        <PageHeading title="発送内容の確認" lead="内容をご確認のうえ「発送を申し込む」を押してください。" />
        <section aria-labelledby="ship-items" className="rounded-2xl bg-white p-4 shadow-sm">
          <h2 id="ship-items" className="text-base font-bold">
            発送するカード（{quote.items.length}枚）
          </h2>
          <ShippingCards items={quote.items} />
        </section>
        <section aria-labelledby="ship-address" className="rounded-2xl bg-white p-4 shadow-sm">
          <h2 id="ship-address" className="text-base font-bold">
            お届け先
          </h2>
          <p className="mt-2 text-sm leading-relaxed">
            {address.name} 様
            <br />
            {address.line}
          </p>
        </section>
        <section aria-labelledby="ship-terms" className="rounded-2xl bg-white p-4 shadow-sm">
          <h2 id="ship-terms" className="sr-only">
            手数料と発送予定日
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">発送手数料</dt>
            <dd className="text-right font-bold">
              {quote.feeCoins === 0
                ? '無料'
                : `${formatCoins(quote.feeCoins)}コイン（所持 ${formatCoins(quote.balance)}コイン）`}
            </dd>
            <dt className="text-muted">発送予定日</dt>
            <dd className="text-right text-base font-black text-primary-ink">{jaDate(quote.promisedDate)}まで</dd>
          </dl>
          <p className="mt-3 text-xs leading-relaxed text-muted">
            土日・祝日・休業日を除いて数えた日付です。この日までに発送できなかったときは、お詫びのコインを自動でお送りします。
            申し込み後、発送準備が始まるまではキャンセルできます（カードは保管中に戻ります）。
          </p>
        </section>
        {answer?.error ? (
          <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-bold text-danger">
            {answer.error}
            {answer.remedy ? (
              <AppLink
                to={
                  answer.remedy.href.startsWith('?') ? `${backHref}&${answer.remedy.href.slice(1)}` : answer.remedy.href
                }
                className="ml-2 underline"
              >
                {answer.remedy.label}
              </AppLink>
            ) : null}
          </p>
        ) : null}
        <Form method="post" replace>
          <input type="hidden" name="prizeIds" value={quote.items.map((i) => i.prizeId).join(',')} />
          <input type="hidden" name="addressId" value={address.id} />
          <input type="hidden" name="feeCoins" value={quote.feeCoins} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <Button type="submit" size="lg" fullWidth loading={submitting}>
            発送を申し込む
          </Button>
        </Form>
        <ButtonLink to={backHref} variant="plain" fullWidth>
          選び直す
        </ButtonLink>
      </div>
    );
  }

  return <ChooseStep key={viewKey(actionData, location.key)} loaderData={loaderData} answer={actionData} />;
}

const answerKeys = new WeakMap<object, string>();
let answersSeen = 0;

/**
 * When the choose step starts afresh (its state from the answer or the address): on each navigation, and
 * on each answer of the page's action. React Router shows an answer while the page's data reloads and
 * keeps the same answer when it arrives with a new location: one answer is one key, so the sheet the
 * member is typing into (the SMS code) is not rebuilt empty under their fingers when the reload lands.
 */
function viewKey(answer: unknown, locationKey: string): string {
  if (!answer || typeof answer !== 'object') return locationKey;
  let key = answerKeys.get(answer);
  if (!key) {
    key = `answer-${++answersSeen}`;
    answerKeys.set(answer, key);
  }
  return key;
}

type ChooseData = Extract<Route.ComponentProps['loaderData'], { step: 'choose' }>;
type AnyAnswer = (NewShippingActionData & { sheet?: undefined }) | PrerequisiteActionData | undefined;

/** The cards chosen on the page, as the page's address (a reload or a redirect keeps them). */
function hrefOf(chosen: readonly string[], addressId: string | null, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(chosen.map((id) => ['prize', id]));
  if (addressId) params.set('address', addressId);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return `/mypage/shipping/new${query ? `?${query}` : ''}`;
}

function ChooseStep({ loaderData, answer: rawAnswer }: { loaderData: ChooseData; answer: unknown }) {
  const navigation = useNavigation();
  const location = useLocation();
  const answer = rawAnswer as AnyAnswer;
  const sheetAnswer = answer && 'sheet' in answer && answer.sheet ? answer : null;
  const { prizes, addresses, more, feeCoins, minPrizes, prerequisites, notice } = loaderData;
  const [chosen, setChosen] = useState<string[]>(() => sheetAnswer?.keep ?? loaderData.chosen);
  const [addressId, setAddressId] = useState(loaderData.addressId);
  const [sheet, setSheet] = useState<PrerequisiteSheet | null>(() => sheetAnswer?.sheet ?? loaderData.sheet);
  // The choice lives in the address too: a reload, or the way back from a sheet, keeps it.
  useEffect(() => {
    const href = hrefOf(chosen, addressId);
    if (window.location.pathname + window.location.search !== href)
      window.history.replaceState(window.history.state, '', href);
    // After each navigation too: an answer's reload lands on the address it was posted to.
  }, [chosen, addressId, location.key]);
  // The problem the loader found (the quote refused), or the button's (the request refused).
  const refused = answer && !('sheet' in answer && answer.sheet) ? (answer as NewShippingActionData) : null;
  const problem = loaderData.problem ?? (refused?.error ? { message: refused.error, remedy: refused.remedy } : null);
  const loading = navigation.state === 'loading' && navigation.location?.search.includes('step=confirm');
  const kept = prizes.filter((p) => p.status === 'kept').map((p) => p.prizeId);
  const toggle = (prizeId: string, on: boolean) =>
    setChosen((was) => (on ? [...new Set([...was, prizeId])] : was.filter((id) => id !== prizeId)));
  const ready = prerequisites.hasAddress && prerequisites.phoneVerified;
  const openSheet = (which: PrerequisiteSheet) => setSheet(which);
  return (
    <div className="flex flex-col gap-4 pb-8">
      <PageHeading
        title="発送の申し込み"
        lead={`発送するカードとお届け先を選んでください。${minPrizes > 1 ? `1回の申し込みは${minPrizes}枚からです。` : ''}発送手数料は${feeCoins === 0 ? '無料' : `${formatCoins(feeCoins)}コイン`}です。`}
      />
      {notice ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
          {notice}
        </p>
      ) : null}
      {ready ? null : (
        <PrerequisiteChecklist
          prerequisites={prerequisites}
          hrefFor={(which) => hrefOf(chosen, addressId, { sheet: which })}
          onOpen={openSheet}
        />
      )}
      {problem ? (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-bold text-danger">
          {problem.message}
          {problem.remedy ? (
            <RemedyLink
              remedy={problem.remedy}
              hrefOf={(extra) => hrefOf(chosen, addressId, extra)}
              onOpen={openSheet}
            />
          ) : null}
        </p>
      ) : null}
      {prizes.length === 0 ? (
        <EmptyState
          title="発送できるカードがありません"
          action={
            <ButtonLink to="/" variant="secondary">
              オリパを探す
            </ButtonLink>
          }
        >
          未選択または保管中のカードを発送できます。
        </EmptyState>
      ) : (
        <Form method="get" className="flex flex-col gap-4">
          <input type="hidden" name="step" value="confirm" />
          <fieldset className="rounded-2xl bg-white p-4 shadow-sm">
            <legend className="float-left mb-2 flex w-full items-center justify-between gap-2 text-base font-bold">
              <span>発送するカード</span>
              <span className="text-sm font-normal text-muted" aria-live="polite">
                {chosen.length}枚を選択中
              </span>
            </legend>
            {kept.length > 0 ? (
              <div className="clear-both mb-3 flex gap-2">
                <Button
                  type="submit"
                  name="pick"
                  value="kept"
                  formNoValidate
                  variant="secondary"
                  onClick={(event) => {
                    event.preventDefault();
                    setChosen((was) => [...new Set([...was, ...kept])]);
                  }}
                >
                  保管中をすべて選ぶ（{kept.length}枚）
                </Button>
                {chosen.length > 0 ? (
                  <Button type="button" variant="plain" onClick={() => setChosen([])}>
                    選択を解除
                  </Button>
                ) : null}
              </div>
            ) : null}
            {more ? <p className="clear-both text-xs text-muted">新しい順に100枚まで表示しています。</p> : null}
            <ul className="clear-both grid grid-cols-2 gap-2 sm:grid-cols-4">
              {prizes.map((p) => (
                <li key={p.prizeId}>
                  <label className="flex h-full cursor-pointer flex-col gap-1 rounded-xl border border-line p-2 text-xs has-[:checked]:border-primary has-[:checked]:bg-primary/5">
                    <span className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        name="prize"
                        value={p.prizeId}
                        checked={chosen.includes(p.prizeId)}
                        onChange={(event) => toggle(p.prizeId, event.target.checked)}
                        className="size-5"
                      />
                      <span className="font-bold">{p.tierLabel}</span>
                      <span className="ml-auto rounded bg-canvas px-1">
                        {p.status === 'kept' ? '保管中' : '未選択'}
                      </span>
                    </span>
                    <Image src={p.imagePath} alt="" width={120} height={168} className="mx-auto w-20 rounded" />
                    <span className="line-clamp-2">{p.cardName}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <AddressChoice addresses={addresses} addressId={addressId} onChoose={setAddressId} />
          <Button type="submit" size="lg" fullWidth loading={loading} disabled={!ready || chosen.length === 0}>
            確認へ進む
          </Button>
          {ready ? null : (
            <p className="text-center text-xs text-muted">上の「発送の前に必要なこと」を済ませると進めます。</p>
          )}
        </Form>
      )}
      <PrerequisiteSheets
        sheet={sheet}
        onClose={() => setSheet(null)}
        keep={chosen.join(',')}
        addressId={addressId}
        addressAnswer={sheetAnswer?.sheet === 'address' ? sheetAnswer.address : null}
        phoneAnswer={sheetAnswer?.sheet === 'phone' ? sheetAnswer.phone : null}
        phoneSuggestion={prerequisites.phoneSuggestion}
        restartHref={hrefOf(chosen, addressId, { sheet: 'phone' })}
        closeHref={hrefOf(chosen, addressId)}
      />
    </div>
  );
}

/** A refusal's way out: a sheet on this page (「?sheet=…」) or another page. */
function RemedyLink({
  remedy,
  hrefOf: href,
  onOpen,
}: {
  remedy: { href: string; label: string };
  hrefOf: (extra: Record<string, string>) => string;
  onOpen: (sheet: PrerequisiteSheet) => void;
}) {
  const sheet = remedy.href.startsWith('?sheet=') ? remedy.href.slice('?sheet='.length) : null;
  if (sheet === 'address' || sheet === 'phone')
    return (
      <AppLink
        to={href({ sheet })}
        replace
        preventScrollReset
        onClick={(event) => {
          event.preventDefault();
          onOpen(sheet);
        }}
        className="ml-2 underline"
      >
        {remedy.label}
      </AppLink>
    );
  return (
    <AppLink to={remedy.href} className="ml-2 underline">
      {remedy.label}
    </AppLink>
  );
}

/** The address radio list (or where to add one). */
function AddressChoice({
  addresses,
  addressId,
  onChoose,
}: {
  addresses: ChooseData['addresses'];
  addressId: string | null;
  onChoose: (id: string) => void;
}) {
  return (
    <fieldset className="rounded-2xl bg-white p-4 shadow-sm">
      <legend className="float-left mb-2 w-full text-base font-bold">お届け先</legend>
      {addresses.length === 0 ? (
        <p className="clear-both text-sm">住所が登録されていません。上の「住所を登録する」から登録できます。</p>
      ) : (
        <ul className="clear-both flex flex-col gap-2">
          {addresses.map((a) => (
            <li key={a.id}>
              <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-line p-3 text-sm has-[:checked]:border-primary">
                <input
                  type="radio"
                  name="address"
                  value={a.id}
                  checked={a.id === addressId}
                  onChange={() => onChoose(a.id)}
                  className="mt-0.5 size-5"
                />
                <span>
                  <b>{a.name} 様</b>
                  {a.isDefault ? <span className="ml-2 text-xs text-muted">いつもの配送先</span> : null}
                  <span className="block text-muted">{a.line}</span>
                </span>
              </label>
            </li>
          ))}
          <li>
            <AppLink to="/mypage/addresses" className="text-sm underline">
              住所を追加・変更する（住所録）
            </AppLink>
          </li>
        </ul>
      )}
    </fieldset>
  );
}
