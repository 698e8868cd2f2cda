// /mypage/addresses (住所録): the loader (the member's addresses, which form or confirmation to show)
// and the action (save, fill from the postal code without JavaScript, make usual, delete) on the
// shipping module's functions and its one address schema, the same the API uses.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { describeRefusal } from '#modules/refusals';
import { JAPANESE_PARSE, fieldMessages } from '#modules/kernel';
import { isUuid } from '#modules/kernel';
import {
  addressInputSchema,
  createAddress,
  deleteAddress,
  listAddresses,
  lookupPostalCode,
  MAX_ADDRESSES_PER_MEMBER,
  postalFill,
  setDefaultAddress,
  updateAddress,
  type MemberAddress,
} from '#modules/shipping';
import type { AddressFormValues } from '~/components/AddressForm';
import { maintenanceRefusal, refusalInit } from './maintenance.server';

export const ADDRESS_BOOK_PATH = '/mypage/addresses';

export type AddressFieldName = Exclude<keyof AddressFormValues, 'isDefault'>;

export interface AddressActionData {
  values?: AddressFormValues;
  fieldErrors?: Partial<Record<AddressFieldName, string>>;
  formError?: string;
  /** After a look-up: what was filled in, or that nothing was found. */
  lookupMessage?: string;
  /** The towns of the looked-up code (several for some codes), offered as suggestions. */
  towns?: string[];
}

/** An address as the page shows it (no times: loader data crosses to the browser as JSON). */
export type AddressView = Omit<MemberAddress, 'createdAt' | 'updatedAt'>;

export type AddressBookView =
  | { mode: 'list' }
  | { mode: 'new' }
  | { mode: 'edit'; address: AddressView }
  | { mode: 'delete'; address: AddressView };

const DONE_NOTICES: Record<string, string> = {
  created: '住所を登録しました。',
  updated: '住所を変更しました。',
  deleted: '住所を削除しました。',
  default: 'いつもの配送先を変更しました。',
};

/** @example export const loader = ({ request, context }) => addressBookLoader(context.get(shopRequestContext), request) */
export async function addressBookLoader(shop: ShopRequest, request: Request) {
  const url = new URL(request.url);
  if (!shop.member) throw visitorAnswer(request);
  const addresses: AddressView[] = (
    await listAddresses(shop.services.db, shop.services.config.addressKeyring, shop.member.id)
  ).map(({ createdAt: _created, updatedAt: _updated, ...address }) => address);
  const params = url.searchParams;
  const find = (id: string | null) => (id && isUuid(id) ? addresses.find((a) => a.id === id) : undefined);
  const editing = find(params.get('edit'));
  const deleting = find(params.get('delete'));
  const asked = params.get('edit') ?? params.get('delete');
  let view: AddressBookView = { mode: 'list' };
  if (editing) view = { mode: 'edit', address: editing };
  else if (deleting) view = { mode: 'delete', address: deleting };
  else if (params.get('new') === '1' && addresses.length < MAX_ADDRESSES_PER_MEMBER) view = { mode: 'new' };
  return {
    addresses,
    maxAddresses: MAX_ADDRESSES_PER_MEMBER,
    view,
    notice: DONE_NOTICES[params.get('done') ?? ''] ?? null,
    // A link to an address that is not (or no longer) the member's: said plainly, the list shown.
    missing: Boolean(asked) && view.mode === 'list',
  };
}

const text = (value: string | undefined, max = 400) => (value ?? '').slice(0, max);

export function valuesOf(form: Record<string, string>): AddressFormValues {
  return {
    name: text(form.name),
    nameKana: text(form.nameKana),
    postalCode: text(form.postalCode, 40),
    prefecture: text(form.prefecture, 20),
    city: text(form.city),
    town: text(form.town),
    building: text(form.building),
    phone: text(form.phone, 40),
    isDefault: form.isDefault === 'on',
  };
}

const answer = (body: AddressActionData, status = 200) => data<AddressActionData>(body, { status });

/** The postal look-up of the form's 「住所を自動入力」 button when the browser runs no script. */
function fillFromPostalCode(values: AddressFormValues) {
  const found = lookupPostalCode(values.postalCode);
  if (!found.ok) return answer({ values, fieldErrors: { postalCode: describeRefusal(found).message } }, 400);
  const fill = postalFill(found.places);
  const filled: AddressFormValues = {
    ...values,
    prefecture: fill.prefecture,
    city: fill.city ?? values.city,
    town: fill.town,
  };
  return answer({ values: filled, towns: fill.towns.length ? fill.towns : undefined, lookupMessage: fill.message });
}

/** @example export const action = ({ request, context }) => addressBookAction(context.get(shopRequestContext), request) */
export async function addressBookAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(ADDRESS_BOOK_PATH));
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<AddressActionData>({ formError: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return answer({ formError: UNREADABLE_FORM_MESSAGE }, 400);
  const { db, config } = shop.services;
  const memberId = shop.member.id;
  const addressId = text(form.addressId, 100);

  if (form.intent === 'lookup') return fillFromPostalCode(valuesOf(form));

  if (form.intent === 'save') {
    const values = valuesOf(form);
    const parsed = addressInputSchema.safeParse(values, JAPANESE_PARSE);
    if (!parsed.success) return answer({ values, fieldErrors: fieldMessages(parsed.error, 'form') }, 400);
    const saved = addressId
      ? await updateAddress(db, config.addressKeyring, memberId, addressId, parsed.data)
      : await createAddress(db, config.addressKeyring, memberId, parsed.data);
    if (!saved.ok) {
      const refused = describeRefusal(saved);
      return answer({ values, formError: refused.message }, refused.status);
    }
    return redirect(`${ADDRESS_BOOK_PATH}?done=${addressId ? 'updated' : 'created'}`);
  }

  if (form.intent === 'delete' || form.intent === 'default') {
    const done =
      form.intent === 'delete'
        ? await deleteAddress(db, memberId, addressId)
        : await setDefaultAddress(db, memberId, addressId);
    if (!done.ok) {
      const refused = describeRefusal(done);
      return answer({ formError: refused.message }, refused.status);
    }
    return redirect(`${ADDRESS_BOOK_PATH}?done=${form.intent === 'delete' ? 'deleted' : 'default'}`);
  }

  return answer({ formError: '操作を読み取れませんでした。ページを再読み込みしてもう一度お試しください。' }, 400);
}
