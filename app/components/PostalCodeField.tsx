// The 郵便番号 field of the address form: typing 7 digits fills 都道府県・市区町村・町域 from
// GET /api/v1/postal-codes/{code} without a reload; without JavaScript its button asks the page's action.
import { useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Button } from './Button';
import { Spinner } from './Spinner';
import { ADDRESS_FIELD_LABELS as LABELS, postalFill, readPostalCode } from '#modules/shipping/browser';

interface PostalPlace {
  prefecture: string;
  city: string;
  town: string;
}

type Lookup =
  { state: 'idle' } | { state: 'loading' } | { state: 'done'; message: string } | { state: 'failed'; message: string };

/** The fields a look-up fills, and the look-up's state; the form keeps them as its own state. */
export function usePostalLookup(
  initial: { prefecture: string; city: string; town: string },
  initialTowns: string[] | undefined,
  lookupMessage: string | undefined,
) {
  const [prefecture, setPrefecture] = useState(initial.prefecture);
  const [city, setCity] = useState(initial.city);
  const [town, setTown] = useState(initial.town);
  const [towns, setTowns] = useState<string[]>(initialTowns ?? []);
  const [lookup, setLookup] = useState<Lookup>(
    lookupMessage ? { state: 'done', message: lookupMessage } : { state: 'idle' },
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

  return {
    prefecture,
    setPrefecture,
    city,
    setCity,
    town,
    setTown,
    towns,
    lookup,
    postalInput,
    onPostalCode,
    onLookupButton,
  };
}

/** The 郵便番号 input, its 「住所を自動入力」 button, and the look-up's outcome read out as it changes. */
export function PostalCodeField({
  postal,
  defaultValue,
  error,
}: {
  postal: ReturnType<typeof usePostalLookup>;
  defaultValue: string;
  error: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor="field-postalCode" className="text-sm font-bold">
        {LABELS.postalCode}
      </label>
      <div className="flex gap-2">
        <input
          ref={postal.postalInput}
          id="field-postalCode"
          name="postalCode"
          inputMode="numeric"
          autoComplete="postal-code"
          required
          maxLength={10}
          defaultValue={defaultValue}
          placeholder="100-0001"
          onChange={postal.onPostalCode}
          aria-invalid={error ? true : undefined}
          aria-describedby={`field-postalCode-hint${error ? ' field-postalCode-error' : ''}`}
          className={`min-h-12 min-w-0 flex-1 rounded-xl border bg-white px-4 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-red-500' : 'border-line'}`}
        />
        <Button
          type="submit"
          name="intent"
          value="lookup"
          variant="secondary"
          formNoValidate
          onClick={postal.onLookupButton}
          loading={postal.lookup.state === 'loading'}
        >
          住所を自動入力
        </Button>
      </div>
      <p id="field-postalCode-hint" className="text-xs text-muted">
        7桁を入力すると、都道府県・市区町村・町域が自動で入ります。
      </p>
      <p role="status" aria-live="polite" className="text-sm empty:hidden" data-testid="postal-lookup">
        {postal.lookup.state === 'loading' ? (
          <span className="flex items-center gap-2 text-muted">
            <Spinner className="size-4" label={null} />
            住所を検索しています…
          </span>
        ) : postal.lookup.state === 'done' ? (
          <span className="font-bold text-emerald-700">{postal.lookup.message}</span>
        ) : postal.lookup.state === 'failed' ? (
          <span className="font-bold text-red-600">{postal.lookup.message}</span>
        ) : null}
      </p>
      {error ? (
        <p id="field-postalCode-error" className="text-sm font-bold text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
