// /admin/promo-codes: 特典コード (docs/decisions/032). Register one code or issue a batch of N random
// codes (readable alphabet, CSV download), see each code's usage against its cap, and stop a code.
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/promo-codes';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { promoCodesAction, promoCodesLoader, type PromoAdminActionData } from '~/controllers/admin-promo-codes.server';

export const handle = { title: '特典コード' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return promoCodesLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return promoCodesAction(context.get(shopRequestContext), request);
}

const input = 'mt-1 block w-full rounded-lg border border-line px-3 py-2 text-sm font-normal';

function TermsFields({ prefix, ranks }: { prefix: string; ranks: { rank: number; name: string }[] }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <label className="text-xs font-bold" htmlFor={`${prefix}-label`}>
        キャンペーン名（会員の履歴に表示）
        <input id={`${prefix}-label`} name="label" required maxLength={60} className={input} />
      </label>
      <label className="text-xs font-bold" htmlFor={`${prefix}-coins`}>
        付与する無償コイン
        <input id={`${prefix}-coins`} name="coins" inputMode="numeric" required className={input} />
      </label>
      <label className="text-xs font-bold" htmlFor={`${prefix}-starts`}>
        開始（日本時間）
        <input id={`${prefix}-starts`} type="datetime-local" name="startsAt" required className={input} />
      </label>
      <label className="text-xs font-bold" htmlFor={`${prefix}-ends`}>
        終了（日本時間・この時刻から使えません）
        <input id={`${prefix}-ends`} type="datetime-local" name="endsAt" required className={input} />
      </label>
      <label className="text-xs font-bold" htmlFor={`${prefix}-cap`}>
        利用上限（全会員の合計・空欄は無制限）
        <input id={`${prefix}-cap`} name="maxRedemptions" inputMode="numeric" className={input} />
      </label>
      <label className="text-xs font-bold" htmlFor={`${prefix}-new`}>
        新規会員のみ（登録から何日以内・空欄は全員）
        <input id={`${prefix}-new`} name="newMemberDays" inputMode="numeric" className={input} />
      </label>
      <label className="text-xs font-bold" htmlFor={`${prefix}-rank`}>
        最低ランク（今月のランク）
        <select id={`${prefix}-rank`} name="minRank" defaultValue="" className={input}>
          <option value="">条件なし</option>
          {ranks
            .filter((r) => r.rank > 0)
            .map((r) => (
              <option key={r.rank} value={r.rank}>{`${r.name}以上`}</option>
            ))}
        </select>
      </label>
    </div>
  );
}

export default function PromoCodesPage({ loaderData }: Route.ComponentProps) {
  const { codes, ranks, maxBatch } = loaderData;
  const answer = useActionData<PromoAdminActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const batches = [...new Set(codes.map((c) => c.batchId).filter((b): b is string => Boolean(b)))];
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">特典コード</h1>
      <p className="mt-1 text-sm text-muted">
        会員が /mypage/tokutencode
        で入力すると無償コインを受け取れるコードです。大文字・小文字、全角・半角、空白・ハイフンは区別しません。1つのコードは会員ごとに1回まで使えます。
      </p>
      <div className="mt-4">
        <ActionAnswer
          answer={answer}
          detail={
            answer?.batch ? (
              <a className="underline" href={`/admin/promo-codes/batch.csv?id=${answer.batch.id}`} download>
                CSVをダウンロード（{answer.batch.count}件）
              </a>
            ) : undefined
          }
        />
      </div>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="promo-single" className="rounded-2xl border border-line bg-white p-5">
          <h2 id="promo-single" className="text-lg font-bold">
            コードを1件登録する
          </h2>
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="create" />
            <label className="text-xs font-bold" htmlFor="single-code">
              コード（英数字4〜32文字）
              <input id="single-code" name="code" required maxLength={64} className={input} />
            </label>
            <TermsFields prefix="single" ranks={ranks} />
            <div>
              <Button type="submit" loading={busy('create')}>
                登録する
              </Button>
            </div>
          </Form>
        </section>
        <section aria-labelledby="promo-batch" className="rounded-2xl border border-line bg-white p-5">
          <h2 id="promo-batch" className="text-lg font-bold">
            ランダムなコードを一括発行する
          </h2>
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="batch" />
            <label className="text-xs font-bold" htmlFor="batch-count">
              {`発行数（1〜${maxBatch.toLocaleString('ja-JP')}件・各コード10文字、0/O・1/I/Lは使いません）`}
              <input id="batch-count" name="count" inputMode="numeric" required className={input} />
            </label>
            <TermsFields prefix="batch" ranks={ranks} />
            <div>
              <Button type="submit" loading={busy('batch')}>
                発行する
              </Button>
            </div>
          </Form>
        </section>
      </div>
      {batches.length > 0 ? (
        <section aria-labelledby="promo-batches" className="mt-6">
          <h2 id="promo-batches" className="text-lg font-bold">
            一括発行のCSV
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2 text-sm">
            {batches.map((b) => (
              <li key={b}>
                <a className="underline" href={`/admin/promo-codes/batch.csv?id=${b}`} download>
                  {`バッチ ${b.slice(0, 8)}`}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="promo-list" className="mt-6">
        <h2 id="promo-list" className="text-lg font-bold">
          コード一覧（新しい順）
        </h2>
        {codes.length === 0 ? (
          <p className="mt-2 text-sm text-muted">まだ特典コードはありません。</p>
        ) : (
          <div className="mt-2 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="px-2 py-2">
                    コード
                  </th>
                  <th scope="col" className="px-2 py-2">
                    キャンペーン
                  </th>
                  <th scope="col" className="px-2 py-2">
                    コイン
                  </th>
                  <th scope="col" className="px-2 py-2">
                    期間（日本時間）
                  </th>
                  <th scope="col" className="px-2 py-2">
                    利用数
                  </th>
                  <th scope="col" className="px-2 py-2">
                    条件
                  </th>
                  <th scope="col" className="px-2 py-2">
                    状態
                  </th>
                  <th scope="col" className="px-2 py-2">
                    <span className="sr-only">操作</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {codes.map((c) => (
                  <tr key={c.id} className="border-b border-line">
                    <td className="px-2 py-2 font-mono">{c.code}</td>
                    <td className="px-2 py-2">{c.label}</td>
                    <td className="px-2 py-2">{c.coins.toLocaleString('ja-JP')}</td>
                    <td className="px-2 py-2">{c.window}</td>
                    <td className="px-2 py-2">{c.cap === null ? `${c.used}` : `${c.used} / ${c.cap}`}</td>
                    <td className="px-2 py-2">{c.conditions || 'なし'}</td>
                    <td className="px-2 py-2">{c.state}</td>
                    <td className="px-2 py-2">
                      {c.active ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="deactivate" />
                          <input type="hidden" name="id" value={c.id} />
                          <Button type="submit" variant="danger" aria-label={`${c.code} を停止する`}>
                            停止
                          </Button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
