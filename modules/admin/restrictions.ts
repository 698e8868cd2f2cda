// What a restricted member is told (issue 34 item 6, decision 084): the operator's hold or ban opens a
// restriction (modules/identity) with its reason category, and the member gets the notice mail in the same
// transaction: the category in the account policy's words, the end, and where to see the statement and
// appeal (a held member's mypage; a banned member's statement link, since a ban has no session). An operator
// may send a banned member a fresh link (`member.restriction.link`), the old one then stops working.

import type { Database } from '#db/client';
import { jstText, refuse, RefusalError } from '#modules/kernel';
import {
  ACCOUNT_POLICY_PATH,
  RESTRICTION_CATEGORY_WORDS,
  RESTRICTION_KIND_LABELS,
  STANDING_PAGE_PATH,
  openRestriction,
  renewStatementLink,
  restrictionsOf,
  staffAccountOf,
  statementLinkPath,
  type Restriction,
  type RestrictionCategory,
  type RestrictionKind,
} from '#modules/identity';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { refundLinkUntil } from '#modules/shop';
import { runAdminAction, type Operator } from './audit';
import type { OperatorOutcome } from './operations';

/** What an operator's hold or ban needs to tell the member: the category they read, and the shop. */
export interface RestrictionNotice {
  category: RestrictionCategory;
  site: SiteIdentity;
}

const absolute = (site: SiteIdentity, path: string) => `${site.origin.replace(/\/$/, '')}${path}`;

/**
 * Opens the restriction and queues its notice mail, in the caller's transaction (the hold's or ban's).
 * @example await restrictAndTell(tx, operator, memberId, 'ban', { category: 'automation', site }, null)
 */
export async function restrictAndTell(
  tx: Database,
  operator: Operator,
  memberId: string,
  kind: RestrictionKind,
  notice: RestrictionNotice,
  until: Date | null,
): Promise<Restriction> {
  const { restriction, token } = await openRestriction(tx, {
    memberId,
    kind,
    category: notice.category,
    until,
    by: operator.memberId ?? operator.label,
    // While a closing shop takes 払戻し applications, a banned member applies by this link (decision 085).
    linkUntil: kind === 'ban' ? await refundLinkUntil(tx) : null,
  });
  await mailNotice(tx, notice.site, restriction, token);
  return restriction;
}

async function mailNotice(tx: Database, site: SiteIdentity, restriction: Restriction, token: string | null) {
  const account = await staffAccountOf(tx, restriction.memberId);
  if (!account || account.deleted) return;
  const words = RESTRICTION_CATEGORY_WORDS[restriction.category];
  await queueMail(tx, site, {
    to: account.email,
    template: 'account-restricted',
    vars: {
      kind: RESTRICTION_KIND_LABELS[restriction.kind],
      category: words.label,
      meaning: words.meaning,
      until: restriction.until ? `${jstText(restriction.until)}まで` : '解除するまで',
      url: absolute(site, token ? statementLinkPath(token) : STANDING_PAGE_PATH),
      policyUrl: absolute(site, ACCOUNT_POLICY_PATH),
      appealUntil: jstText(restriction.appealUntil),
    },
    memberId: restriction.memberId,
  });
}

/**
 * Sends a banned member a fresh statement link (`member.restriction.link`): the member lost the mail, or the
 * link expired. Only for a ban in force (a held member signs in and reads it on their mypage).
 * @example await resendStatementLinkAsOperator(db, operator, memberId, site)
 */
export async function resendStatementLinkAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  site: SiteIdentity,
): Promise<OperatorOutcome<{ restrictionId: string }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const ban = (await restrictionsOf(tx, memberId)).find((r) => r.kind === 'ban' && r.inForce);
    if (!ban) throw new RefusalError(refuse('RESTRICTION_NOT_FOUND', { memberId }));
    const token = (await renewStatementLink(tx, ban.id, new Date(), await refundLinkUntil(tx)))!;
    await mailNotice(tx, site, ban, token);
    return {
      value: { restrictionId: ban.id },
      audit: {
        action: 'member.restriction.link',
        target: { type: 'member', id: memberId },
        after: { restrictionId: ban.id },
      },
    };
  });
}
