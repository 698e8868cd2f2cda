// What the approvals page's sections share (decisions 026, 050, 052): which request the operator is
// deciding (closed again when the action answers), the approve / reject buttons (or why one cannot
// decide one's own request), and the optional reason for a rejection.
import { useEffect, useState } from 'react';
import { useActionData, useNavigation } from 'react-router';
import { Button } from '~/components/Button';

/**
 * The request being decided and how; the dialog closes when the action answers.
 * @example const { asking, setAsking, busy } = useDeciding<'approve' | 'reject'>();
 */
export function useDeciding<Intent extends string>() {
  const answer = useActionData();
  const navigation = useNavigation();
  const [asking, setAsking] = useState<{ id: string; intent: Intent } | null>(null);
  useEffect(() => {
    if (answer) setAsking(null);
  }, [answer]);
  return { asking, setAsking, busy: navigation.state === 'submitting' };
}

/**
 * Approve and reject for a decider; for one's own request, why not.
 * @example <DecisionButtons mine={a.mine} approveLabel="承認して反映" onApprove={…} onReject={…} />
 */
export function DecisionButtons({
  mine,
  mineText = '自分の申請は承認・却下できません。',
  approveLabel,
  onApprove,
  onReject,
}: {
  mine?: boolean;
  mineText?: string;
  approveLabel: string;
  onApprove: () => void;
  onReject: () => void;
}) {
  if (mine) return <p className="mt-2 text-xs font-bold text-muted">{mineText}</p>;
  return (
    <div className="mt-3 flex gap-3">
      <Button onClick={onApprove}>{approveLabel}</Button>
      <Button variant="secondary" onClick={onReject}>
        却下
      </Button>
    </div>
  );
}

/** The rejection's optional reason, kept with the decision. */
export function RejectNoteField() {
  return (
    <label className="text-xs font-bold">
      却下の理由（任意・200文字まで）
      <textarea
        name="note"
        rows={2}
        maxLength={200}
        className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
      />
    </label>
  );
}
