// /admin/mail: メール配信. Compose a broadcast to a segment or a personal mail, with a markup body (preview
// before sending), an optional free-coin present and its deadline, now or scheduled (Japan time); the
// list shows each mail's reads and claims, and a scheduled or sent mail can be withdrawn. A test send to
// oneself comes first; sending asks for a confirmation of the recipients and the present's cost (052).
import { useEffect, useState } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/mail';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { RichText } from '~/components/content';
import { inputClass } from '~/components/admin/fields';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { MailSendConfirmation } from '~/components/admin/MailSendConfirmation';
import { mailAdminAction, mailAdminLoader, type MailAdminActionData } from '~/controllers/admin-mail.server';
import { MAIL_LIMITS } from '~/lib/admin-mail';

export const handle = { title: 'メール配信' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return mailAdminLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return mailAdminAction(context.get(shopRequestContext), request);
}

const label = 'text-xs font-bold';

/** One choice of a radio group whose value the form's state follows. */
function Radio(props: {
  name: string;
  value: string;
  current: string;
  onPick: (value: string) => void;
  children: React.ReactNode;
}) {
  return (
    <label className="flex items-center gap-1">
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.current === props.value}
        onChange={() => props.onPick(props.value)}
      />
      {props.children}
    </label>
  );
}

/** 送り先: a broadcast to a segment (judged when it is sent), or one member. */
function MailAudience({ genres, ranks }: Pick<Route.ComponentProps['loaderData'], 'genres' | 'ranks'>) {
  const [audience, setAudience] = useState('broadcast');
  const [segment, setSegment] = useState('all');
  return (
    <>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className={label}>送り先</legend>
        <Radio name="audience" value="broadcast" current={audience} onPick={setAudience}>
          お知らせ（一斉・対象の会員）
        </Radio>
        <Radio name="audience" value="personal" current={audience} onPick={setAudience}>
          個別メール（1人）
        </Radio>
      </fieldset>
      {audience === 'broadcast' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <label className={label} htmlFor="mail-segment">
            対象（送信時点で判定）
            <select
              id="mail-segment"
              name="segment"
              value={segment}
              onChange={(e) => setSegment(e.target.value)}
              className={inputClass}
            >
              <option value="all">全員</option>
              <option value="rank">ランク以上</option>
              <option value="genre_buyers">ジャンルを引いたことがある会員</option>
              <option value="inactive">しばらく利用がない会員</option>
            </select>
          </label>
          {segment === 'rank' ? (
            <label className={label} htmlFor="mail-rank">
              ランク
              <select id="mail-rank" name="minRank" className={inputClass} defaultValue={ranks[0]?.rank}>
                {ranks.map((r) => (
                  <option key={r.rank} value={r.rank}>{`${r.name}以上`}</option>
                ))}
              </select>
            </label>
          ) : null}
          {segment === 'genre_buyers' ? (
            <label className={label} htmlFor="mail-genre">
              ジャンル
              <select id="mail-genre" name="genreId" className={inputClass}>
                {genres.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {segment === 'inactive' ? (
            <label className={label} htmlFor="mail-inactive">
              ログイン・ガチャがない日数（以上）
              <input
                id="mail-inactive"
                name="inactiveDays"
                inputMode="numeric"
                defaultValue="30"
                className={inputClass}
              />
            </label>
          ) : null}
        </div>
      ) : (
        <label className={label} htmlFor="mail-member">
          会員ID またはメールアドレス
          <input id="mail-member" name="member" className={inputClass} autoComplete="off" />
        </label>
      )}
    </>
  );
}

function ComposeForm({
  genres,
  ranks,
  formKey,
  maxCoinsPerMember,
}: Pick<Route.ComponentProps['loaderData'], 'genres' | 'ranks' | 'maxCoinsPerMember'> & { formKey: string }) {
  const answer = useActionData<MailAdminActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('form') === 'compose';
  const intent = navigation.formData?.get('intent');
  const [timing, setTiming] = useState('now');
  // The confirmation opens with each answer that carries figures, and closes on any other answer.
  const [confirming, setConfirming] = useState(() => Boolean(answer?.confirm));
  useEffect(() => setConfirming(Boolean(answer?.confirm)), [answer]);
  const confirm = answer?.form === 'compose' ? answer.confirm : undefined;
  return (
    <Form
      id="mail-compose"
      method="post"
      className="flex flex-col gap-3 rounded-xl bg-white p-4 shadow-sm"
      aria-labelledby="compose-title"
      // A changed form no longer matches the figures confirmed.
      onChange={() => setConfirming(false)}
    >
      <h2 id="compose-title" className="text-base font-bold">
        メールを作成
      </h2>
      <input type="hidden" name="form" value="compose" />
      <input type="hidden" name="key" value={formKey} />
      <MailAudience genres={genres} ranks={ranks} />
      <label className={label} htmlFor="mail-subject">
        件名（{MAIL_LIMITS.subject}文字以内）
        <input id="mail-subject" name="subject" required maxLength={MAIL_LIMITS.subject} className={inputClass} />
      </label>
      <label className={label} htmlFor="mail-body">
        本文
        <textarea
          id="mail-body"
          name="body"
          required
          rows={8}
          maxLength={MAIL_LIMITS.body}
          className={`${inputClass} py-2`}
          aria-describedby="mail-body-hint"
        />
        <span id="mail-body-hint" className="mt-1 block font-normal text-muted">
          1行が1段落です。「- 」で箇条書き、「1. 」で番号付き、「## 」で見出し、**太字**、[リンクの文字](https://…
          または /パス)。
        </span>
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className={label} htmlFor="mail-coins">
          プレゼント（無償コイン・1人{maxCoinsPerMember.toLocaleString('ja-JP')}コインまで・空欄はなし）
          <input id="mail-coins" name="coins" inputMode="numeric" className={inputClass} />
        </label>
        <label className={label} htmlFor="mail-claim-until">
          受け取り期限（日本時間・空欄は送信から30日）
          <input id="mail-claim-until" type="datetime-local" name="claimUntil" className={inputClass} />
        </label>
      </div>
      <fieldset className="flex flex-wrap items-end gap-4 text-sm">
        <legend className={label}>送信</legend>
        <Radio name="timing" value="now" current={timing} onPick={setTiming}>
          すぐに送る
        </Radio>
        <Radio name="timing" value="later" current={timing} onPick={setTiming}>
          予約する
        </Radio>
        {timing === 'later' ? (
          <label className={label} htmlFor="mail-send-at">
            送信日時（日本時間）
            <input id="mail-send-at" type="datetime-local" name="sendAt" className={inputClass} />
          </label>
        ) : null}
      </fieldset>
      {confirm && confirming ? null : <ActionAnswer answer={answer} form="compose" />}
      {answer?.form === 'compose' && answer.preview ? (
        <section aria-label="プレビュー" className="rounded-lg border border-line p-3">
          <p className="text-xs font-bold text-muted">プレビュー（会員にはこう表示されます）</p>
          <p className="mt-1 font-bold">{answer.preview.subject}</p>
          <div className="mt-2">
            <RichText value={answer.preview.body} />
          </div>
        </section>
      ) : null}
      <p className="text-xs text-muted">
        まず「自分にテスト送信」で、ご自分のメールボックスに届く表示を確かめてください（プレゼントのコインは付きません）。
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="test" variant="secondary" loading={busy && intent === 'test'}>
          自分にテスト送信
        </Button>
        <Button type="submit" name="intent" value="preview" variant="secondary" loading={busy && intent === 'preview'}>
          プレビュー
        </Button>
        <Button type="submit" name="intent" value="confirm" loading={busy && intent === 'confirm'}>
          送信内容を確認
        </Button>
      </div>
      {confirm && confirming ? (
        <MailSendConfirmation
          formId="mail-compose"
          confirm={confirm}
          busy={busy && intent === 'send'}
          changed={answer?.error}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Form>
  );
}

export default function AdminMail({ loaderData }: Route.ComponentProps) {
  const answer = useActionData<MailAdminActionData>();
  const navigation = useNavigation();
  const [canceling, setCanceling] = useState<number | null>(null);
  // The dialog closes once the withdrawal has answered (the answer shows above the list).
  useEffect(() => {
    if (answer?.form === 'cancel') setCanceling(null);
  }, [answer]);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-xl font-black">メール配信</h1>
      <ComposeForm
        genres={loaderData.genres}
        ranks={loaderData.ranks}
        formKey={loaderData.key}
        maxCoinsPerMember={loaderData.maxCoinsPerMember}
      />
      <section aria-labelledby="sent-title" className="flex flex-col gap-2">
        <h2 id="sent-title" className="text-base font-bold">
          送ったメール（新しい順）
        </h2>
        <ActionAnswer answer={answer} form="cancel" />
        <div className="overflow-x-auto rounded-xl bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-muted">
              <tr>
                <th className="px-3 py-2">#</th>
                <th className="px-3 py-2">件名・送り先</th>
                <th className="px-3 py-2">送信日時</th>
                <th className="px-3 py-2">状態</th>
                <th className="px-3 py-2 text-right">既読</th>
                <th className="px-3 py-2 text-right">受け取り</th>
                <th className="px-3 py-2">
                  <span className="sr-only">操作</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.mails.map((m) => (
                <tr key={m.id}>
                  <td className="px-3 py-2 tabular-nums">{m.id}</td>
                  <td className="px-3 py-2">
                    <span className="block font-bold">{m.subject}</span>
                    <span className="block text-xs text-muted">
                      {m.to}
                      {m.attachment ? `・プレゼント ${m.attachment}` : ''}
                    </span>
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{m.sendAt}</td>
                  <td className="px-3 py-2">{m.state}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{m.reads.toLocaleString('ja-JP')}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{m.claims.toLocaleString('ja-JP')}</td>
                  <td className="px-3 py-2">
                    {m.cancelable ? (
                      <Button
                        variant="plain"
                        onClick={() => setCanceling(m.id)}
                        loading={navigation.state === 'submitting' && navigation.formData?.get('id') === String(m.id)}
                      >
                        取り消す
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {loaderData.mails.length === 0 ? (
            <p className="p-4 text-sm text-muted">まだ送ったメールはありません。</p>
          ) : null}
        </div>
      </section>
      {canceling !== null ? (
        <ConfirmDialog
          title={`メール #${canceling} を取り消しますか？`}
          confirmLabel="取り消す"
          confirmVariant="danger"
          hidden={{ form: 'cancel', id: canceling, intent: 'cancel' }}
          busy={navigation.state === 'submitting' && navigation.formData?.get('id') === String(canceling)}
          onCancel={() => setCanceling(null)}
        >
          <p className="text-sm">メール #{canceling} を取り消します。会員には表示されなくなります。</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
