// /mypage/addresses (住所録): the member's delivery addresses (up to 5): list with the usual one
// marked, add, change, make usual, delete after a confirmation. Members only. Everything works
// without JavaScript (links and forms); with it, the postal code fills the address as it is typed.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/addresses';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { AddressForm, EMPTY_ADDRESS_FORM } from '~/components/AddressForm';
import { addressBookAction, addressBookLoader } from '~/controllers/addresses.server';
import type { AddressActionData, AddressView } from '~/controllers/addresses.server';
import { formatPostalCode } from '#modules/shipping/browser';

export const handle = { title: '住所録' };

/** This page (the action's redirects name it too: ADDRESS_BOOK_PATH). */
const ADDRESS_BOOK_PATH = '/mypage/addresses';

export async function loader({ request, context }: Route.LoaderArgs) {
  return addressBookLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return addressBookAction(context.get(shopRequestContext), request);
}

export default function AddressBook({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, maxAddresses, view, notice, missing } = loaderData;
  const result = actionData as AddressActionData | undefined;
  const full = addresses.length >= maxAddresses;

  if (view.mode === 'new' || view.mode === 'edit') {
    const editing = view.mode === 'edit' ? view.address : null;
    const initial =
      result?.values ??
      (editing
        ? { ...editing, building: editing.building ?? '', postalCode: formatPostalCode(editing.postalCode) }
        : EMPTY_ADDRESS_FORM);
    return (
      <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
        <PageHeading
          title={editing ? '住所を変更' : '住所を追加'}
          lead="獲得したカードのお届け先です。郵便番号を入力すると住所が自動で入ります。"
        />
        <AddressForm
          addressId={editing?.id}
          initial={initial}
          alreadyDefault={editing?.isDefault}
          fieldErrors={result?.fieldErrors}
          formError={result?.formError}
          lookupMessage={result?.lookupMessage}
          towns={result?.towns}
          cancelTo={ADDRESS_BOOK_PATH}
        />
      </div>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading title="住所録" lead="獲得したカードのお届け先を登録しておけます。" />
      {notice ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
          {notice}
        </p>
      ) : null}
      <FormAlert message={result?.formError ?? (missing ? '住所が見つかりません。' : null)} />
      <p className="text-sm text-muted" data-testid="address-count">
        {`お届け先は${maxAddresses}件まで登録できます（登録済み ${addresses.length}件）。`}
      </p>
      {addresses.length === 0 ? (
        <EmptyState
          title="登録された住所はありません"
          action={
            <ButtonLink to={`${ADDRESS_BOOK_PATH}?new=1`} size="lg">
              住所を追加する
            </ButtonLink>
          }
        >
          発送を申し込む前に、お届け先の住所を登録してください。
        </EmptyState>
      ) : (
        <>
          <ul className="flex flex-col gap-3" aria-label="登録済みの住所">
            {addresses.map((address) => (
              <li key={address.id}>
                {view.mode === 'delete' && view.address.id === address.id ? (
                  <DeleteConfirmation address={address} />
                ) : (
                  <AddressCard address={address} />
                )}
              </li>
            ))}
          </ul>
          {full ? (
            <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="address-limit">
              {`登録できる住所は${maxAddresses}件までです。新しい住所を追加するには、使わない住所を削除してください。`}
            </p>
          ) : (
            <ButtonLink to={`${ADDRESS_BOOK_PATH}?new=1`} variant="secondary" fullWidth>
              ＋ 住所を追加する
            </ButtonLink>
          )}
        </>
      )}
      <AppLink to="/mypage" className="text-center text-sm text-muted underline underline-offset-2">
        マイページへ戻る
      </AppLink>
    </div>
  );
}

/** The address as it goes on a label: 〒, prefecture to building, the name with 様, the phone. */
function AddressLines({ address }: { address: AddressView }) {
  return (
    <div className="flex flex-col gap-0.5 text-sm leading-relaxed">
      <p className="text-base font-bold">
        {`${address.name} 様`}
        <span className="ml-2 text-xs font-normal text-muted">{address.nameKana}</span>
      </p>
      <p>{`〒${formatPostalCode(address.postalCode)}`}</p>
      <p>{`${address.prefecture}${address.city}${address.town}`}</p>
      {address.building ? <p>{address.building}</p> : null}
      <p className="text-muted">{`電話 ${address.phone}`}</p>
    </div>
  );
}

function AddressCard({ address }: { address: AddressView }) {
  const navigation = useNavigation();
  const makingDefault =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === 'default' &&
    navigation.formData?.get('addressId') === address.id;
  return (
    <article
      aria-label={`${address.name} 様の住所${address.isDefault ? '（いつもの配送先）' : ''}`}
      className={`flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ${address.isDefault ? 'ring-2 ring-primary-ink' : ''}`}
    >
      {address.isDefault ? (
        <p className="self-start rounded-full bg-primary-ink px-3 py-1 text-xs font-bold text-white">いつもの配送先</p>
      ) : null}
      <AddressLines address={address} />
      <div className="flex flex-wrap gap-2">
        <ButtonLink
          to={`${ADDRESS_BOOK_PATH}?edit=${address.id}`}
          variant="plain"
          aria-label={`${address.name} 様の住所を変更`}
        >
          変更
        </ButtonLink>
        <ButtonLink
          to={`${ADDRESS_BOOK_PATH}?delete=${address.id}`}
          variant="plain"
          preventScrollReset
          aria-label={`${address.name} 様の住所を削除`}
        >
          削除
        </ButtonLink>
        {address.isDefault ? null : (
          <Form method="post">
            <input type="hidden" name="addressId" value={address.id} />
            <Button type="submit" name="intent" value="default" variant="secondary" loading={makingDefault}>
              いつもの配送先にする
            </Button>
          </Form>
        )}
      </div>
    </article>
  );
}

/** 削除 asks first (a page of its own without JavaScript): the address, then 削除する or やめる. */
function DeleteConfirmation({ address }: { address: AddressView }) {
  const navigation = useNavigation();
  const deleting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete';
  return (
    <section
      role="alertdialog"
      aria-labelledby="delete-title"
      aria-describedby="delete-lead"
      className="flex flex-col gap-3 rounded-2xl border-2 border-red-300 bg-white p-4 shadow-sm"
    >
      <h2 id="delete-title" className="text-base font-black text-red-700">
        この住所を削除しますか？
      </h2>
      <p id="delete-lead" className="text-sm text-muted">
        削除した住所は元に戻せません。申し込み済みの発送には影響しません。
      </p>
      <AddressLines address={address} />
      <Form method="post" className="flex flex-col gap-2">
        <input type="hidden" name="addressId" value={address.id} />
        <Button type="submit" name="intent" value="delete" variant="danger" fullWidth loading={deleting}>
          削除する
        </Button>
        <ButtonLink to={ADDRESS_BOOK_PATH} variant="plain" fullWidth preventScrollReset>
          やめる
        </ButtonLink>
      </Form>
    </section>
  );
}
