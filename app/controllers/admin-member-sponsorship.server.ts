// The member page's PR-label actions (decision 083, members:write): start a sponsorship of a kind, or end it.
// Each is audited in its transaction (modules/admin/sponsorships.ts).
import type { Database } from '#db/client';
import { actionOk, actionRefused } from '~/lib/admin-action';
import { refusedBy as refused } from '~/controllers/admin-answers.server';
import { endSponsorshipAsOperator, startSponsorshipAsOperator, type Operator } from '#modules/admin';
import { SPONSORSHIP_KIND_LABELS, sponsorshipKinds, type SponsorshipKind } from '#modules/identity';

export const SPONSORSHIP_INTENTS = ['sponsorStart', 'sponsorEnd'] as const;

/** Starts (with the chosen kind) or ends the member's sponsorship; a bad kind is a clear 4xx. */
export async function sponsorshipAction(
  db: Database,
  operator: Operator,
  memberId: string,
  intent: (typeof SPONSORSHIP_INTENTS)[number],
  kind: string | undefined,
) {
  if (intent === 'sponsorEnd') {
    const done = await endSponsorshipAsOperator(db, operator, memberId);
    if (!done.ok) return refused(done, intent);
    return actionOk(
      done.value.ended
        ? 'PR表示を終了しました。提携中の当選・ランキングには引き続き「PR」が付きます。'
        : 'この会員はPR表示の対象ではありません。',
      { form: intent },
    );
  }
  if (!sponsorshipKinds.includes(kind as SponsorshipKind))
    return actionRefused('提携の区分（配信者・アフィリエイト）を選んでください。', { form: intent });
  const done = await startSponsorshipAsOperator(db, operator, memberId, kind as SponsorshipKind);
  if (!done.ok) return refused(done, intent);
  return actionOk(
    done.value.started
      ? `PR表示を開始しました（${SPONSORSHIP_KIND_LABELS[kind as SponsorshipKind]}）。当選履歴・ランキング・シェア文に「PR」が付きます。`
      : 'すでにPR表示の対象です（種類は変わっていません）。',
    { form: intent },
  );
}
