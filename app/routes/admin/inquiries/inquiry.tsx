// /admin/inquiries/:inquiryId: one inquiry at the desk. The thread (the inquirer's messages and the
// staff's answers, with the attached images as thumbnails), the related order, draw or shipping request,
// the answer form with templates (inserted where the cursor is; without scripts, through ?template=),
// status and assignee, and the internal note the inquirer never sees. Opening it is audited.
import { useRef } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/inquiry';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { inquiryAction, inquiryLoader, type InquiryActionData } from '~/controllers/admin-inquiries.server';

export const handle = { title: 'お問い合わせ' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return inquiryLoader(context.get(shopRequestContext), request, params.inquiryId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return inquiryAction(context.get(shopRequestContext), request, params.inquiryId);
}

function Answer({ answer, form }: { answer: InquiryActionData | undefined; form: string }) {
  if (!answer || (answer.form ?? 'reply') !== form) return null;
  return answer.error ? (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
      {answer.error}
    </p>
  ) : (
    <p role="status" className="rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
      {answer.ok}
    </p>
  );
}

const field = 'mt-1 block w-full rounded-lg border border-line bg-white px-3 text-sm';

export default function InquiryPage({ loaderData }: Route.ComponentProps) {
  const { inquiry: q, templates, statuses, staff, limits, canWrite, earlier, members } = loaderData;
  const answer = useActionData<InquiryActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const reply = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLSelectElement>(null);
  const draft = answer?.form === 'reply' && answer.error ? (answer.draft ?? '') : loaderData.draft;

  /** Puts the chosen template's text where the cursor is in the answer (the answer's text is kept). */
  const insertTemplate = (event: React.FormEvent<HTMLFormElement>) => {
    const template = templates.find((t) => t.id === picker.current?.value);
    const box = reply.current;
    if (!template || !box) return;
    event.preventDefault();
    const start = box.selectionStart ?? box.value.length;
    const end = box.selectionEnd ?? start;
    box.value = box.value.slice(0, start) + template.body + box.value.slice(end);
    box.focus();
    box.setSelectionRange(start + template.body.length, start + template.body.length);
  };

  return (
    <div className="max-w-6xl">
      <p className="text-sm">
        <Link to="/admin/inquiries" className="underline">
          お問い合わせ一覧に戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-black">
          <span className="font-mono">{q.reference}</span>
        </h1>
        <span className="rounded bg-ink px-2 py-0.5 text-sm font-bold text-white" data-testid="inquiry-status">
          {q.statusLabel}
        </span>
        <span className="text-sm text-muted">{q.categoryLabel}</span>
      </div>
      <p className="mt-1 text-lg font-bold">{q.subject}</p>

      <div className="mt-4 grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex min-w-0 flex-col gap-4">
          <section aria-labelledby="thread" className="rounded-2xl border border-line bg-white p-4">
            <h2 id="thread" className="text-base font-bold">
              やりとり
            </h2>
            <ol className="mt-3 flex flex-col gap-3">
              {q.messages.map((m) => (
                <li
                  key={m.id}
                  className={`rounded-xl p-3 text-sm ${m.author === 'staff' ? 'ml-6 bg-sky-50' : 'mr-6 bg-slate-50'}`}
                >
                  <p className="text-xs font-bold">
                    {m.author === 'staff' ? `スタッフ（${m.staffName ?? '—'}）` : 'お客様'}
                    <span className="ml-2 font-normal text-muted">{formatStaffDateTime(m.at)}</span>
                  </p>
                  <p className="mt-1 whitespace-pre-wrap break-words leading-relaxed">{m.body}</p>
                  {m.attachments.length ? (
                    <ul className="mt-2 flex flex-wrap gap-2" aria-label="添付画像">
                      {m.attachments.map((a, index) => (
                        <li key={a.id}>
                          <a
                            href={`/admin/inquiries/attachments/${a.id}`}
                            target="_blank"
                            rel="noreferrer"
                            className="block rounded-lg border border-line bg-white p-1 hover:border-ink"
                          >
                            <img
                              src={`/admin/inquiries/attachments/${a.id}?size=thumb`}
                              alt={`添付画像${index + 1}（${a.width}×${a.height}）`}
                              loading="lazy"
                              className="h-28 w-auto max-w-40 rounded object-contain"
                            />
                          </a>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ol>
          </section>

          {canWrite ? (
            <section aria-labelledby="reply" className="rounded-2xl border border-line bg-white p-4">
              <h2 id="reply" className="text-base font-bold">
                回答する
              </h2>
              <p className="mt-1 text-xs text-muted">回答は {q.email} にメールでお送りし、監査ログに記録します。</p>
              {templates.length ? (
                <Form method="get" onSubmit={insertTemplate} className="mt-3 flex flex-wrap items-end gap-2">
                  <label className="text-xs font-bold">
                    テンプレート
                    <select ref={picker} name="template" defaultValue="" className={`${field} min-h-11 w-72`}>
                      <option value="" disabled>
                        選んでください
                      </option>
                      {templates.map((t) => (
                        <option key={t.id} value={t.id}>
                          {t.title}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button type="submit" variant="secondary">
                    テンプレートを挿入
                  </Button>
                </Form>
              ) : (
                <p className="mt-2 text-xs text-muted">
                  <Link to="/admin/inquiries/templates" className="underline">
                    回答テンプレート
                  </Link>
                  を登録すると、ここから挿入できます。
                </p>
              )}
              <Form method="post" className="mt-3 grid gap-3">
                <input type="hidden" name="intent" value="reply" />
                <Answer answer={answer} form="reply" />
                <label className="text-xs font-bold">
                  回答
                  <textarea
                    ref={reply}
                    name="body"
                    rows={10}
                    required
                    maxLength={limits.reply}
                    defaultValue={draft}
                    key={draft}
                    className={`${field} py-2 leading-relaxed`}
                  />
                </label>
                <div className="flex flex-wrap items-end gap-3">
                  <label className="text-xs font-bold">
                    回答後の状態
                    <select name="status" defaultValue="waiting" className={`${field} min-h-11`}>
                      {statuses.map((s) => (
                        <option key={s.id} value={s.id}>
                          {s.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button type="submit" loading={busy('reply')}>
                    回答を送信
                  </Button>
                </div>
              </Form>
            </section>
          ) : null}
        </div>

        <aside className="flex flex-col gap-4">
          <section aria-labelledby="inquirer" className="rounded-2xl border border-line bg-white p-4 text-sm">
            <h2 id="inquirer" className="text-base font-bold">
              お客様
            </h2>
            <dl className="mt-2 grid gap-1">
              <dt className="text-xs font-bold text-muted">メールアドレス</dt>
              <dd className="break-all">{q.email}</dd>
              <dt className="text-xs font-bold text-muted">会員</dt>
              <dd className="break-all">
                {q.memberId ? <MemberTag tag={members[q.memberId]} memberId={q.memberId} /> : 'ゲスト（未ログイン）'}
              </dd>
              <dt className="text-xs font-bold text-muted">受付</dt>
              <dd>{formatStaffDateTime(q.createdAt)}</dd>
              {q.related ? (
                <>
                  <dt className="text-xs font-bold text-muted">関連するご利用</dt>
                  <dd data-testid="inquiry-related">
                    {q.related.label ? (
                      <>
                        {q.related.kindLabel}: {q.related.label}
                        {q.relatedLink ? (
                          <Link to={q.relatedLink} className="ml-1 underline">
                            発送デスクで開く
                          </Link>
                        ) : null}
                        <span className="block font-mono text-xs text-muted">{q.related.id}</span>
                      </>
                    ) : (
                      <span className="text-muted">見つかりません（{q.related.id}）</span>
                    )}
                  </dd>
                </>
              ) : null}
            </dl>
            {earlier.length ? (
              <>
                <h3 className="mt-3 text-xs font-bold text-muted">この会員の他のお問い合わせ</h3>
                <ul className="mt-1 grid gap-1 text-xs">
                  {earlier.map((e) => (
                    <li key={e.id}>
                      <Link to={`/admin/inquiries/${e.id}`} className="font-mono underline">
                        {e.reference}
                      </Link>{' '}
                      {e.statusLabel}・{e.subject}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>

          <section aria-labelledby="handling" className="rounded-2xl border border-line bg-white p-4 text-sm">
            <h2 id="handling" className="text-base font-bold">
              状態・担当者
            </h2>
            {canWrite ? (
              <Form method="post" className="mt-2 grid gap-3">
                <input type="hidden" name="intent" value="update" />
                <Answer answer={answer} form="update" />
                <label className="text-xs font-bold">
                  状態
                  <select name="status" defaultValue={q.status} key={q.status} className={`${field} min-h-11`}>
                    {statuses.map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="text-xs font-bold">
                  担当者
                  <select
                    name="assigneeId"
                    defaultValue={q.assigneeId ?? ''}
                    key={q.assigneeId ?? ''}
                    className={`${field} min-h-11`}
                  >
                    <option value="">未割り当て</option>
                    {staff.map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.name}
                      </option>
                    ))}
                  </select>
                </label>
                <div>
                  <Button type="submit" variant="secondary" loading={busy('update')}>
                    保存
                  </Button>
                </div>
              </Form>
            ) : (
              <p className="mt-2">
                {q.statusLabel}・担当 {q.assigneeName ?? '未割り当て'}
              </p>
            )}
          </section>

          <section aria-labelledby="note" className="rounded-2xl border border-line bg-white p-4 text-sm">
            <h2 id="note" className="text-base font-bold">
              社内メモ
            </h2>
            <p className="mt-1 text-xs text-muted">お客様には表示されません。</p>
            {canWrite ? (
              <Form method="post" className="mt-2 grid gap-2">
                <input type="hidden" name="intent" value="note" />
                <Answer answer={answer} form="note" />
                <label htmlFor="internal-note" className="sr-only">
                  社内メモ
                </label>
                <textarea
                  id="internal-note"
                  name="note"
                  rows={4}
                  maxLength={limits.note}
                  defaultValue={q.internalNote ?? ''}
                  key={q.internalNote ?? ''}
                  className={`${field} py-2`}
                />
                <div>
                  <Button type="submit" variant="secondary" loading={busy('note')}>
                    メモを保存
                  </Button>
                </div>
              </Form>
            ) : (
              <p className="mt-2 whitespace-pre-wrap">{q.internalNote ?? '（なし）'}</p>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}
