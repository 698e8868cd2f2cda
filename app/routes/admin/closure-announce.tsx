// /admin/closure's announcement (decision 085): the form, then the review that shows what members will read and
// asks for the typed words before the closure is announced (decision 052's guardrail).
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { TextField } from '~/components/FormField';
import type { ClosureReview } from '~/controllers/admin-closure.server';

interface Typed {
  salesStopAt: string;
  refundDeadline: string;
  notice: string;
}

export function ClosureAnnounce({
  review,
  typed,
  busy,
  minDays,
  noticeMaxLength,
  confirmationWords,
}: {
  review: ClosureReview | undefined;
  typed: Typed | undefined;
  busy: (intent: string) => boolean;
  minDays: number;
  noticeMaxLength: number;
  confirmationWords: string;
}) {
  const loaderData = { minDays, noticeMaxLength, confirmationWords };
  return review ? (
    <section aria-labelledby="closure-confirm" className="mt-6 rounded-2xl border-2 border-red-600 bg-white p-5">
      <h2 id="closure-confirm" className="text-lg font-bold">
        閉店を告知しますか？
      </h2>
      <dl className="mt-2 grid gap-1 text-sm">
        <div>
          <dt className="inline font-bold">販売停止：</dt>
          <dd className="inline">{review.salesStopText}</dd>
        </div>
        <div>
          <dt className="inline font-bold">払戻しの申出期限：</dt>
          <dd className="inline">{review.refundDeadlineText}（日本時間）</dd>
        </div>
      </dl>
      <p className="mt-2 whitespace-pre-wrap rounded-lg bg-amber-50 p-3 text-sm">{review.notice}</p>
      <p className="mt-3 text-sm font-bold">
        告知すると、全ページにお知らせが出て、残高のある全会員にメールボックスとメールで通知します。販売停止の後は、コインの購入・ガチャ・カードのコイン交換ができなくなり、販売中のパックはすべて販売終了になります（取り消せません）。
      </p>
      <Form method="post" className="mt-4 grid gap-3">
        <input type="hidden" name="intent" value="announce" />
        <input type="hidden" name="salesStopAt" value={review.fields.salesStopAt} />
        <input type="hidden" name="refundDeadline" value={review.fields.refundDeadline} />
        <input type="hidden" name="notice" value={review.fields.notice} />
        <TextField
          name="confirmWords"
          label={`確認のため「${loaderData.confirmationWords}」と入力してください`}
          autoComplete="off"
          required
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" variant="danger" loading={busy('announce')}>
            閉店を告知する
          </Button>
        </div>
      </Form>
      <Form method="get" className="mt-2">
        <Button type="submit" variant="plain">
          やめる
        </Button>
      </Form>
    </section>
  ) : (
    <Form method="post" className="mt-6 grid gap-4 rounded-2xl border border-line bg-white p-5">
      <h2 className="text-lg font-bold">閉店を告知する</h2>
      <input type="hidden" name="intent" value="review" />
      <TextField
        name="salesStopAt"
        label="販売停止の日時（日本時間・空欄ならすぐに停止）"
        type="datetime-local"
        defaultValue={typed?.salesStopAt ?? ''}
      />
      <TextField
        name="refundDeadline"
        label={`払戻しの申出期限（日本時間・公告から${loaderData.minDays}日以上）`}
        type="datetime-local"
        defaultValue={typed?.refundDeadline ?? ''}
        required
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor="closure-notice" className="text-sm font-bold">
          公告文（閉店の理由、払戻しの方法、問い合わせ先など）
        </label>
        <textarea
          id="closure-notice"
          name="notice"
          rows={6}
          maxLength={loaderData.noticeMaxLength}
          defaultValue={typed?.notice ?? ''}
          required
          className="rounded-xl border border-line bg-white px-4 py-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30"
        />
      </div>
      <div>
        <Button type="submit" loading={busy('review')}>
          確認へ進む
        </Button>
      </div>
    </Form>
  );
}
