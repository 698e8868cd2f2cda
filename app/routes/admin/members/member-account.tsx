// The member page's account actions (members:write): ban and unban, sign-out everywhere, purchase hold
// and its clearing, and the age declaration. The weighty ones ask first in a dialog.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { MemberActionData } from '~/controllers/admin-members.server';
import { formatStaffDate } from '#modules/kernel/dates';
import { RESTRICTION_CATEGORY_WORDS, restrictionCategories } from '#modules/identity/browser';
import { Section, n, type MemberData } from './member-parts';

/** Which dialog is open: the destructive or weighty actions ask first. */
type Asking = null | 'ban' | 'unban' | 'revokeSessions' | 'hold';

const QUESTIONS: Record<NonNullable<Asking>, string> = {
  ban: 'この会員を利用停止にしますか？',
  unban: '利用停止を解除しますか？',
  revokeSessions: 'すべての端末からログアウトさせますか？',
  hold: 'コイン購入と発送依頼を停止しますか？',
};

const CONFIRM_LABELS: Record<NonNullable<Asking>, string> = {
  ban: '利用停止にする',
  unban: '解除する',
  revokeSessions: 'ログアウトさせる',
  hold: '停止する',
};

/** The reason category the member is told and mailed (the account policy's words; decision 084). */
function CategoryField() {
  return (
    <label className="text-xs font-bold">
      会員に伝える理由の区分（必須）
      <select
        name="category"
        required
        defaultValue=""
        className="mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm"
      >
        <option value="" disabled>
          選んでください
        </option>
        {restrictionCategories.map((category) => (
          <option key={category} value={category}>
            {RESTRICTION_CATEGORY_WORDS[category].label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The reason a ban or hold asks for, seen by staff only. */
function StaffReasonField() {
  return (
    <label className="text-xs font-bold">
      理由（必須・スタッフのみ閲覧）
      <textarea
        name="reason"
        rows={3}
        maxLength={500}
        required
        className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
      />
    </label>
  );
}

/** What each weighty action will do, and the fields it asks for. */
function AccountActionDetails({ asking, sessions }: { asking: NonNullable<Asking>; sessions: number }) {
  if (asking === 'ban')
    return (
      <>
        <p className="text-sm">
          すべての端末からログアウトさせ、ログインできなくします（「利用停止中」と表示されます）。会員には理由の区分と、明細・異議申し立てのページへのリンクをメールで送ります。
        </p>
        <CategoryField />
        <StaffReasonField />
        <label className="text-xs font-bold">
          期限（この日の終わりまで・空欄は無期限）
          <input type="date" name="until" className="mt-1 block min-h-11 rounded-lg border border-line px-3 text-sm" />
        </label>
      </>
    );
  if (asking === 'hold')
    return (
      <>
        <p className="text-sm">
          コインの購入と発送依頼ができなくなります。会員には理由の区分をメールとマイページで知らせ（スタッフの理由は表示しません）、異議申し立てを受け付けます。ガチャとコイン交換はそのまま使えます。
        </p>
        <CategoryField />
        <StaffReasonField />
      </>
    );
  if (asking === 'revokeSessions')
    return (
      <p className="text-sm">ログイン中の{n(sessions)}件のセッションを終了します。会員は再ログインすれば使えます。</p>
    );
  return <p className="text-sm">会員は再びログインできるようになります。</p>;
}

/**
 * PR表示 (decision 083, 景品表示法's ステマ rule): a streamer or affiliate the shop has a deal with. While it
 * lasts, their wins, ranking lines and share texts carry 「PR」; ending it keeps the label on what was done then.
 */
function SponsorshipActions({
  d,
  answer,
  busy,
}: {
  d: MemberData;
  answer: MemberActionData | undefined;
  busy: (intent: string) => boolean;
}) {
  return (
    <div className="mt-4 rounded-xl border border-line p-3" data-testid="sponsorship">
      <h3 className="text-sm font-bold">PR表示（提携している配信者・アフィリエイト）</h3>
      <p className="mt-1 text-xs text-muted">
        提携中の当選履歴・ランキング・シェア文に「PR」が付きます（景品表示法のステルスマーケティング規制）。
      </p>
      {d.sponsorship ? (
        <Form method="post" className="mt-2 flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="sponsorEnd" />
          <p className="text-sm">
            提携中：<b>{d.sponsorship.label}</b>（{formatStaffDate(d.sponsorship.since)}から）
          </p>
          <Button type="submit" variant="secondary" loading={busy('sponsorEnd')}>
            PR表示を終了
          </Button>
        </Form>
      ) : (
        <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="sponsorStart" />
          <label className="text-xs font-bold">
            提携の区分
            <select
              name="kind"
              required
              defaultValue=""
              className="mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm"
            >
              <option value="" disabled>
                選んでください
              </option>
              <option value="streamer">配信者（提供を受けた配信・投稿）</option>
              <option value="affiliate">アフィリエイト（紹介報酬あり）</option>
            </select>
          </label>
          <Button type="submit" variant="secondary" loading={busy('sponsorStart')}>
            PR表示を開始
          </Button>
        </Form>
      )}
      {['sponsorStart', 'sponsorEnd'].map((f) => (
        <ActionAnswer key={f} className="mt-2" answer={answer} form={f} />
      ))}
    </div>
  );
}

/**
 * @example {actionable ? <AccountActions d={loaderData} answer={answer} /> : null}
 */
export function AccountActions({ d, answer }: { d: MemberData; answer: MemberActionData | undefined }) {
  const p = d.profile;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [asking, setAsking] = useState<Asking>(null);
  useEffect(() => {
    if (answer) setAsking(null);
  }, [answer]);
  return (
    <>
      <Section id="account-actions" title="アカウントの操作">
        <p className="mt-1 text-xs text-muted">どの操作も監査ログに記録されます。</p>
        <div className="mt-3 flex flex-wrap gap-2">
          {p.banned ? (
            <Button variant="secondary" onClick={() => setAsking('unban')}>
              利用停止を解除
            </Button>
          ) : (
            <Button variant="danger" onClick={() => setAsking('ban')}>
              利用停止にする
            </Button>
          )}
          <Button variant="secondary" onClick={() => setAsking('revokeSessions')}>
            全端末からログアウト
          </Button>
          {d.hold ? (
            <Form method="post">
              <input type="hidden" name="intent" value="clearHold" />
              <Button type="submit" variant="secondary" loading={busy('clearHold')}>
                購入・発送停止を解除
              </Button>
            </Form>
          ) : (
            <Button variant="secondary" onClick={() => setAsking('hold')}>
              購入・発送を停止
            </Button>
          )}
        </div>
        {['ban', 'unban', 'revokeSessions', 'hold', 'clearHold'].map((f) => (
          <ActionAnswer key={f} className="mt-2" answer={answer} form={f} />
        ))}
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="age" />
          <label className="text-xs font-bold">
            年齢申告の訂正
            <select
              name="minor"
              defaultValue={p.declaredMinor === null ? '' : String(p.declaredMinor)}
              className="mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm"
            >
              <option value="" disabled>
                選んでください
              </option>
              <option value="false">18歳以上</option>
              <option value="true">18歳未満</option>
            </select>
          </label>
          <Button type="submit" variant="secondary" loading={busy('age')}>
            訂正する
          </Button>
        </Form>
        <ActionAnswer className="mt-2" answer={answer} form="age" />
        <SponsorshipActions d={d} answer={answer} busy={busy} />
      </Section>
      {asking ? (
        <ConfirmDialog
          title={QUESTIONS[asking]}
          confirmLabel={CONFIRM_LABELS[asking]}
          confirmVariant={asking === 'unban' ? 'primary' : 'danger'}
          hidden={{ intent: asking }}
          onCancel={() => setAsking(null)}
          busy={busy(asking)}
        >
          <AccountActionDetails asking={asking} sessions={d.sessions.total} />
        </ConfirmDialog>
      ) : null}
    </>
  );
}
