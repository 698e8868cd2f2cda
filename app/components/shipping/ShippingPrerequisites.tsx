// What 発送を申し込む needs before a request (decision 058): an address and a verified phone, listed at
// the top of the page before any card is chosen, each put right in a sheet on the same page — the
// address form of 住所録 and the SMS code steps of 電話番号認証, posting to the page's own action with the
// cards chosen so far (`keep`), so the member comes back to the same choice.
import type { MouseEvent } from 'react';
import { AddressForm, EMPTY_ADDRESS_FORM } from '~/components/AddressForm';
import { ButtonLink } from '~/components/Button';
import { PhoneCodeSteps, type PhoneFormState } from '~/components/PhoneCodeSteps';
import { Sheet } from '~/components/Sheet';
import type { AddressActionData } from '~/controllers/addresses.server';

export type PrerequisiteSheet = 'address' | 'phone';

export interface PrerequisitesView {
  hasAddress: boolean;
  phoneVerified: boolean;
  phoneSuggestion: string | null;
}

/** The checklist: what is done, and a button to the sheet of what is not. */
export function PrerequisiteChecklist({
  prerequisites,
  hrefFor,
  onOpen,
}: {
  prerequisites: PrerequisitesView;
  /** The page's address with a sheet open (the link works before the page runs JavaScript). */
  hrefFor: (sheet: PrerequisiteSheet) => string;
  onOpen: (sheet: PrerequisiteSheet) => void;
}) {
  const open = (sheet: PrerequisiteSheet) => (event: MouseEvent) => {
    event.preventDefault();
    onOpen(sheet);
  };
  const rows: { sheet: PrerequisiteSheet; label: string; done: boolean; action: string; why: string }[] = [
    {
      sheet: 'address',
      label: 'お届け先の住所',
      done: prerequisites.hasAddress,
      action: '住所を登録する',
      why: 'カードをお送りする住所です。',
    },
    {
      sheet: 'phone',
      label: '電話番号の認証',
      done: prerequisites.phoneVerified,
      action: '電話番号を認証する',
      why: 'なりすまし防止のため、SMSで届く6桁のコードで確認します。',
    },
  ];
  const missing = rows.filter((r) => !r.done).length;
  return (
    <section
      aria-labelledby="ship-ready"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4"
      data-testid="shipping-prerequisites"
    >
      <h2 id="ship-ready" className="text-base font-black">
        発送の前に必要なこと（あと{missing}つ）
      </h2>
      <ol className="mt-3 flex flex-col gap-3">
        {rows.map((row, index) => (
          <li key={row.sheet} className="flex flex-col gap-2 rounded-xl bg-white p-3 text-sm">
            <p className="flex items-center gap-2 font-bold">
              <span
                aria-hidden="true"
                className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs ${row.done ? 'bg-emerald-600 text-white' : 'bg-amber-200 text-amber-950'}`}
              >
                {row.done ? '✓' : index + 1}
              </span>
              {row.label}
              <span className={`ml-auto text-xs ${row.done ? 'text-emerald-800' : 'text-amber-950'}`}>
                {row.done ? '完了' : '未完了'}
              </span>
            </p>
            {row.done ? null : (
              <>
                <p className="text-xs text-muted">{row.why}</p>
                <ButtonLink
                  to={hrefFor(row.sheet)}
                  replace
                  preventScrollReset
                  onClick={open(row.sheet)}
                  variant={missing === 1 || row.sheet === 'address' ? 'primary' : 'secondary'}
                  fullWidth
                >
                  {row.action}
                </ButtonLink>
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The sheet that is open, with its form. */
export function PrerequisiteSheets({
  sheet,
  onClose,
  keep,
  addressId,
  addressAnswer,
  phoneAnswer,
  phoneSuggestion,
  restartHref,
  closeHref,
}: {
  sheet: PrerequisiteSheet | null;
  onClose: () => void;
  /** The cards chosen so far, comma-separated, carried by the sheets' forms. */
  keep: string;
  addressId: string | null;
  addressAnswer: AddressActionData | null;
  phoneAnswer: PhoneFormState | null;
  phoneSuggestion: string | null;
  restartHref: string;
  closeHref: string;
}) {
  const hidden: Record<string, string> = { keep, ...(addressId ? { address: addressId } : {}) };
  if (sheet === 'address') {
    return (
      <Sheet title="お届け先を登録" onClose={onClose} testId="address-sheet">
        <p className="mt-2 text-center text-xs text-muted">
          郵便番号を入力すると住所が自動で入ります。選んだカードはそのまま残ります。
        </p>
        <div className="-mx-5 mt-2">
          <AddressForm
            initial={addressAnswer?.values ?? EMPTY_ADDRESS_FORM}
            fieldErrors={addressAnswer?.fieldErrors}
            formError={addressAnswer?.formError}
            lookupMessage={addressAnswer?.lookupMessage}
            towns={addressAnswer?.towns}
            cancelTo={closeHref}
            onCancel={onClose}
            hiddenFields={hidden}
          />
        </div>
      </Sheet>
    );
  }
  if (sheet === 'phone') {
    const state: PhoneFormState = phoneAnswer ?? { step: 'number', typed: phoneSuggestion ?? undefined };
    return (
      <Sheet title="電話番号を認証" onClose={onClose} testId="phone-sheet">
        <p className="mb-4 mt-2 text-center text-xs text-muted">
          発送には認証済みの携帯電話番号が必要です。選んだカードはそのまま残ります。
        </p>
        <PhoneCodeSteps state={state} submitLabel="認証する" hiddenFields={hidden} restartHref={restartHref} />
      </Sheet>
    );
  }
  return null;
}
