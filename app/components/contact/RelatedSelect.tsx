// The contact form's 関連するご利用: the member's own recent orders, draws and shipping requests, by kind.
import { INQUIRY_RELATED_KIND_LABELS } from '#modules/support/browser';
import { FieldError, selectClass } from './fields';

type Related = { kind: 'order' | 'draw' | 'shipping_request'; value: string; label: string };

export function RelatedSelect({
  related,
  defaultValue,
  error,
}: {
  related: Related[];
  defaultValue: string;
  error: string | undefined;
}) {
  const kinds = (['order', 'draw', 'shipping_request'] as const).filter((k) => related.some((r) => r.kind === k));
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor="field-related" className="text-sm font-bold">
        関連するご利用（任意）
      </label>
      <select
        id="field-related"
        name="related"
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={`field-related-hint${error ? ' field-related-error' : ''}`}
        className={selectClass(error)}
      >
        <option value="">選ばない</option>
        {kinds.map((kind) => (
          <optgroup key={kind} label={INQUIRY_RELATED_KIND_LABELS[kind]}>
            {related
              .filter((r) => r.kind === kind)
              .map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <p id="field-related-hint" className="text-xs text-muted">
        最近のご購入・オリパ・発送依頼から選べます。選ぶと担当者がすぐに確認できます。
      </p>
      <FieldError id="field-related-error" message={error} />
    </div>
  );
}
