// The address form of /mypage/addresses: typing a 7-digit 郵便番号 fills 都道府県・市区町村・町域 from
// GET /api/v1/postal-codes/{code} without a reload; without JavaScript the 「住所を自動入力」 button asks
// the page's action instead. Labels, autocomplete tokens and messages are wired for screen readers.
import { useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button, ButtonLink } from './Button';
import { FormAlert, TextField } from './FormField';
import { Spinner } from './Spinner';
import {
  ADDRESS_FIELD_LABELS as LABELS,
  ADDRESS_FIELD_LIMITS as LIMITS,
  PREFECTURES,
  postalFill,
  readPostalCode,
} from '#modules/shipping/browser';

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

interface PostalPlace {
  prefecture: string;
  city: string;
  town: string;
}

type Lookup =
  { state: 'idle' } | { state: 'loading' } | { state: 'done'; message: string } | { state: 'failed'; message: string };

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

export function AddressForm(props: AddressFormProps) {
  const { initial, fieldErrors = {} } = props;
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const [prefecture, setPrefecture] = useState(initial.prefecture);
  const [city, setCity] = useState(initial.city);
  const [town, setTown] = useState(initial.town);
  const [towns, setTowns] = useState<string[]>(props.towns ?? []);
  const [lookup, setLookup] = useState<Lookup>(
    props.lookupMessage ? { state: 'done', message: props.lookupMessage } : { state: 'idle' },
  );
  const postalInput = useRef<HTMLInputElement>(null);
  const looked = useRef<string | null>(null);
  const inflight = useRef<AbortController | null>(null);
  useEffect(() => () => inflight.current?.abort(), []);

  async function fill(digits: string) {
    inflight.current?.abort();
    const controller = new AbortController();
    inflight.current = controller;
    looked.current = digits;
    setLookup({ state: 'loading' });
    try {
      const response = await fetch(`/api/v1/postal-codes/${digits}`, { signal: controller.signal });
      const body = (await response.json()) as { places?: PostalPlace[]; error?: { message?: string } };
      if (!response.ok || !body.places?.length) {
        setLookup({ state: 'failed', message: body.error?.message ?? '住所を調べられませんでした。' });
        return;
      }
      const fill = postalFill(body.places);
      setPrefecture(fill.prefecture);
      if (fill.city) setCity(fill.city);
      setTown(fill.town);
      setTowns(fill.towns);
      setLookup({ state: 'done', message: fill.message });
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      setLookup({ state: 'failed', message: '通信できませんでした。住所を入力してください。' });
    }
  }

  function onPostalCode(event: ChangeEvent<HTMLInputElement>) {
    const digits = readPostalCode(event.target.value);
    if (digits && digits !== looked.current) void fill(digits);
  }

  function onLookupButton(event: MouseEvent<HTMLButtonElement>) {
    // With JavaScript the look-up runs here; without it, the button submits to the page's action.
    event.preventDefault();
    const digits = readPostalCode(postalInput.current?.value ?? '');
    if (digits) void fill(digits);
    else setLookup({ state: 'failed', message: '郵便番号は7桁の数字で入力してください（例: 100-0001）。' });
  }

  const select =
    'min-h-12 w-full rounded-xl border bg-white px-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';
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
      <div className="flex flex-col gap-1.5">
        <label htmlFor="field-postalCode" className="text-sm font-bold">
          {LABELS.postalCode}
        </label>
        <div className="flex gap-2">
          <input
            ref={postalInput}
            id="field-postalCode"
            name="postalCode"
            inputMode="numeric"
            autoComplete="postal-code"
            required
            maxLength={10}
            defaultValue={initial.postalCode}
            placeholder="100-0001"
            onChange={onPostalCode}
            aria-invalid={fieldErrors.postalCode ? true : undefined}
            aria-describedby={`field-postalCode-hint${fieldErrors.postalCode ? ' field-postalCode-error' : ''}`}
            className={`min-h-12 min-w-0 flex-1 rounded-xl border bg-white px-4 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${fieldErrors.postalCode ? 'border-red-500' : 'border-line'}`}
          />
          <Button
            type="submit"
            name="intent"
            value="lookup"
            variant="secondary"
            formNoValidate
            onClick={onLookupButton}
            loading={lookup.state === 'loading'}
          >
            住所を自動入力
          </Button>
        </div>
        <p id="field-postalCode-hint" className="text-xs text-muted">
          7桁を入力すると、都道府県・市区町村・町域が自動で入ります。
        </p>
        <p role="status" aria-live="polite" className="text-sm empty:hidden" data-testid="postal-lookup">
          {lookup.state === 'loading' ? (
            <span className="flex items-center gap-2 text-muted">
              <Spinner className="size-4" label={null} />
              住所を検索しています…
            </span>
          ) : lookup.state === 'done' ? (
            <span className="font-bold text-emerald-700">{lookup.message}</span>
          ) : lookup.state === 'failed' ? (
            <span className="font-bold text-red-600">{lookup.message}</span>
          ) : null}
        </p>
        {fieldErrors.postalCode ? (
          <p id="field-postalCode-error" className="text-sm font-bold text-red-600">
            {fieldErrors.postalCode}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="field-prefecture" className="text-sm font-bold">
          {LABELS.prefecture}
        </label>
        <select
          id="field-prefecture"
          name="prefecture"
          autoComplete="address-level1"
          required
          value={prefecture}
          onChange={(event) => setPrefecture(event.target.value)}
          aria-invalid={fieldErrors.prefecture ? true : undefined}
          aria-describedby={fieldErrors.prefecture ? 'field-prefecture-error' : undefined}
          className={`${select} ${fieldErrors.prefecture ? 'border-red-500' : 'border-line'}`}
        >
          <option value="">選択してください</option>
          {PREFECTURES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        {fieldErrors.prefecture ? (
          <p id="field-prefecture-error" className="text-sm font-bold text-red-600">
            {fieldErrors.prefecture}
          </p>
        ) : null}
      </div>
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
