// The member page's staff notes: added only (never edited or deleted), never shown to the member.
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { MemberActionData } from '~/controllers/admin-members.server';
import { Section, SectionPager, type MemberData } from './member-parts';

/**
 * @example <NotesSection d={loaderData} answer={answer} />
 */
export function NotesSection({ d, answer }: { d: MemberData; answer: MemberActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'note';
  return (
    <Section id="notes" title="スタッフメモ">
      <p className="mt-1 text-xs text-muted">会員には表示されません。追加のみで、編集・削除はできません。</p>
      {d.can.write ? (
        <Form method="post" className="mt-2 grid gap-2">
          <input type="hidden" name="intent" value="note" />
          <label htmlFor="member-note" className="sr-only">
            メモ
          </label>
          <textarea
            id="member-note"
            name="text"
            rows={3}
            maxLength={2000}
            required
            key={answer?.form === 'note' && answer.ok ? answer.ok + d.notes.items[0]?.id : 'note'}
            className="w-full rounded-lg border border-line p-2 text-sm"
          />
          <div>
            <Button type="submit" variant="secondary" loading={busy}>
              メモを追加
            </Button>
          </div>
        </Form>
      ) : null}
      <ActionAnswer className="mt-2" answer={answer} form="note" />
      <ul className="mt-3 flex flex-col gap-3">
        {d.notes.items.map((note) => (
          <li key={note.id} className="rounded-lg bg-slate-50 p-3 text-sm">
            <p className="whitespace-pre-wrap">{note.text}</p>
            <p className="mt-1 text-xs text-muted">
              {note.authorLabel}・{formatStaffDateTime(note.createdAt)}
            </p>
          </li>
        ))}
      </ul>
      <SectionPager name="notes" next={d.notes.next} />
    </Section>
  );
}
