// The address form of /mypage/addresses: typing a 7-digit 郵便番号 fills 都道府県・市区町村・町域 from
// GET /api/v1/postal-codes/{code} without a reload; without JavaScript the 「住所を自動入力」 button asks
// the page's action instead. Labels, autocomplete tokens and messages are wired for screen readers.
import { Form, useNavigation } from 'react-router';
import { Button, ButtonLink } from './Button';
import { FormAlert, TextField } from './FormField';
import { PostalCodeField, usePostalLookup } from './PostalCodeField';
import { ADDRESS_FIELD_LABELS as LABELS, ADDRESS_FIELD_LIMITS as LIMITS, PREFECTURES } from '#modules/shipping/browser';

/** The form's fields as typed (the action sends them back to refill the form after a refusal or a look-up). */
export interface AddressFormValues {
  name: string;
  nameKana: string;
  postalCode: string;
  prefecture: string;
  city: string;
  town: string;
  building: string;
  phone: string;
  isDefault: boolean;
}

export const EMPTY_ADDRESS_FORM: AddressFormValues = {
  name: '',
  nameKana: '',
  postalCode: '',
  prefecture: '',
  city: '',
  town: '',
  building: '',
  phone: '',
  isDefault: false,
};

type FieldErrors = Partial<Record<Exclude<keyof AddressFormValues, 'isDefault'>, string>>;
export interface AddressFormProps {
  /** Editing an address (its id goes with the form), or adding one. */
  addressId?: string;
  initial: AddressFormValues;
  /** The usual address cannot be unticked here: another one is made usual instead. */
  alreadyDefault?: boolean;
  fieldErrors?: FieldErrors;
  formError?: string;
  /** From the action's look-up (no JavaScript): its message and the code's towns. */
  lookupMessage?: string;
  towns?: string[];
  cancelTo: string;
  /** Fields the form carries besides the address (発送を申し込む's sheet: the cards chosen). */
  hiddenFields?: Record<string, string>;
  /** Closes the form where it is shown in a sheet, instead of following cancelTo. */
  onCancel?: () => void;
}

const selectClass =
  'min-h-12 w-full rounded-xl border bg-white px-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';

/** The 都道府県 select, filled by a postal look-up or chosen by hand. */
function PrefectureSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor="field-prefecture" className="text-sm font-bold">
        {LABELS.prefecture}
      </label>
      <select
        id="field-prefecture"
        name="prefecture"
        autoComplete="address-level1"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'field-prefecture-error' : undefined}
        className={`${selectClass} ${error ? 'border-red-500' : 'border-line'}`}
      >
        <option value="">選択してください</option>
        {PREFECTURES.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {error ? (
        <p id="field-prefecture-error" className="text-sm font-bold text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function AddressForm(props: AddressFormProps) {
  const { initial, fieldErrors = {} } = props;
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const postal = usePostalLookup(initial, props.towns, props.lookupMessage);
  const { city, setCity, town, setTown, towns } = postal;
  return (
    <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
      {/* Enter in any field saves: the first submit button is the form's default (the look-up button comes later). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
        保存
      </button>
      <FormAlert message={props.formError} />
      {props.addressId ? <input type="hidden" name="addressId" value={props.addressId} /> : null}
      {Object.entries(props.hiddenFields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <TextField
        name="name"
        label={LABELS.name}
        autoComplete="name"
        required
        maxLength={LIMITS.name * 2}
        defaultValue={initial.name}
        error={fieldErrors.name}
        placeholder="山田 太郎"
      />
      <TextField
        name="nameKana"
        label={LABELS.nameKana}
        required
        maxLength={LIMITS.nameKana * 2}
        defaultValue={initial.nameKana}
        error={fieldErrors.nameKana}
        placeholder="ヤマダ タロウ"
        hint="ひらがなでも入力できます。"
      />
      <PostalCodeField postal={postal} defaultValue={initial.postalCode} error={fieldErrors.postalCode} />
      <PrefectureSelect value={postal.prefecture} onChange={postal.setPrefecture} error={fieldErrors.prefecture} />
      <TextField
        name="city"
        label={LABELS.city}
        autoComplete="address-level2"
        required
        maxLength={LIMITS.city * 2}
        value={city}
        onChange={(event) => setCity(event.target.value)}
        error={fieldErrors.city}
        placeholder="千代田区"
      />
      <TextField
        name="town"
        label={LABELS.town}
        autoComplete="address-line1"
        required
        maxLength={LIMITS.town * 2}
        value={town}
        onChange={(event) => setTown(event.target.value)}
        error={fieldErrors.town}
        placeholder="千代田1-1"
        list={towns.length ? 'address-towns' : undefined}
        hint={towns.length ? '候補から町域を選び、番地を続けて入力してください。' : '番地まで入力してください。'}
      />
      {towns.length ? (
        <datalist id="address-towns">
          {towns.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      ) : null}
      <TextField
        name="building"
        label={`${LABELS.building}（任意）`}
        autoComplete="address-line2"
        maxLength={LIMITS.building * 2}
        defaultValue={initial.building}
        error={fieldErrors.building}
        placeholder="ステラハイツ101"
      />
      <TextField
        name="phone"
        label={LABELS.phone}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        required
        maxLength={20}
        defaultValue={initial.phone}
        error={fieldErrors.phone}
        placeholder="090-1234-5678"
        hint="配送業者からの連絡に使います。ハイフンはなくても構いません。"
      />
      {props.alreadyDefault ? (
        <p className="text-sm text-muted">この住所は「いつもの配送先」です。</p>
      ) : (
        <label className="flex min-h-11 items-center gap-3 text-sm font-bold">
          <input
            type="checkbox"
            name="isDefault"
            defaultChecked={initial.isDefault}
            className="size-5 accent-primary-ink"
          />
          いつもの配送先にする
        </label>
      )}
      <Button type="submit" name="intent" value="save" size="lg" fullWidth loading={saving}>
        {props.addressId ? '変更を保存する' : 'この住所を登録する'}
      </Button>
      {props.onCancel ? (
        <Button type="button" variant="plain" fullWidth onClick={props.onCancel} disabled={saving}>
          キャンセル
        </Button>
      ) : (
        <ButtonLink to={props.cancelTo} variant="plain" fullWidth>
          キャンセル
        </ButtonLink>
      )}
    </Form>
  );
}
