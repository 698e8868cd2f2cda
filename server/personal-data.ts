// 退会 across the modules: what each module does with a deleted member's personal data, in the
// tombstone's transaction (eraseMemberData), and what is finished after it (the images in the media
// store, the outbox's notice once sent). The map of every column and why: docs/personal-data.md (decision 053).
import type { Database } from '#db/client';
import type { ErasedMember } from '#modules/identity/server';
import { recentlyDeletedMembers } from '#modules/identity/server';
import { redactRestrictionStatementsOf } from '#modules/identity';
import { addressSpellingsOf, eraseAddressBook, redactShippingNotesOf } from '#modules/shipping';
import { eraseInquirer, removeInquiryImages, sweepOrphanInquiryImages } from '#modules/support';
import { forgetMessagesTo, forgetSentMessagesOf } from '#modules/messaging';
import { redactPaymentEventsOf } from '#modules/payments';
import { forgetMemberKeys } from '#modules/idempotency';
import { forgetFingerprintLabelsOf, redactSignalNotesOf } from '#modules/risk';
import { redactMemberNotesOf } from '#modules/admin';
import { erasePersonalMailsOf } from '#modules/mailbox';
import type { MediaStore } from '#modules/kernel';
import { shippingRulesOf, type ShippingConfig } from './shipping';

/** What the transaction leaves to do once it has committed. */
export interface ErasureFollowUp {
  /** Inquiry images whose rows are gone; their files go after the commit. */
  inquiryImages: string[];
}

/**
 * The other modules' part of 退会, in the tombstone's transaction (identity's own tables are done by
 * deleteOwnAccount): each module erases, pseudonymises or redacts its rows through its door.
 * The coin ledger, orders, draws, prizes and shipping requests are kept (their laws: the map).
 * @example await deleteOwnAccount({ …, eraseWith: (tx, member) => eraseMemberData(tx, config, member, followUp) })
 */
export async function eraseMemberData(
  tx: Database,
  config: ShippingConfig,
  erased: ErasedMember,
  followUp: ErasureFollowUp,
  now = new Date(),
): Promise<void> {
  const memberId = erased.id;
  // The address book's names, street and number join the identity's spellings before it goes.
  const addressSpellings = await addressSpellingsOf(tx, shippingRulesOf(config).keyring, memberId);
  const member = { ...erased, spellings: [...erased.spellings, ...addressSpellings] };
  await eraseAddressBook(tx, memberId);
  followUp.inquiryImages.push(
    ...(await eraseInquirer(tx, { memberId, email: member.email, spellings: member.spellings })),
  );
  await forgetMessagesTo(tx, {
    memberId,
    recipients: [member.email, ...(member.phoneNumber ? [member.phoneNumber] : [])],
    now,
  });
  await redactPaymentEventsOf(tx, { memberId, spellings: member.spellings });
  await forgetMemberKeys(tx, memberId);
  await forgetFingerprintLabelsOf(tx, memberId);
  await redactMemberNotesOf(tx, { memberId, spellings: member.spellings });
  await redactRestrictionStatementsOf(tx, { memberId, spellings: member.spellings });
  await redactShippingNotesOf(tx, { memberId, spellings: member.spellings });
  await redactSignalNotesOf(tx, { memberId, spellings: member.spellings });
  await erasePersonalMailsOf(tx, memberId);
}

/**
 * Right after the deletion committed: removes the inquiry images from the media store. Idempotent; if
 * the process dies first, or the store is away, the `privacy.finish-deletions` job's orphan sweep removes them.
 * @example await finishMemberErasure(mediaStoreOf(services), followUp)
 */
export async function finishMemberErasure(media: MediaStore, followUp: ErasureFollowUp) {
  await removeInquiryImages(media, followUp.inquiryImages);
}

/** How far back the clean-up looks for deletions whose outbox notice may still be on its way. */
export const FINISH_DELETIONS_DAYS = 30;

/**
 * The clean-up that finishes deletions after their transaction: the outbox rows of members deleted
 * in the last FINISH_DELETIONS_DAYS that have been sent since (the 'account-deleted' notice) are
 * forgotten, and inquiry images that no row names any more are removed. Idempotent.
 * @example await finishDeletions(db, mediaStoreOf(services), new Date())
 */
export async function finishDeletions(
  db: Database,
  media: MediaStore,
  now: Date,
): Promise<{ messages: number; files: number }> {
  let messages = 0;
  const since = new Date(now.getTime() - FINISH_DELETIONS_DAYS * 86_400_000);
  for (const memberId of await recentlyDeletedMembers(db, since))
    messages += await forgetSentMessagesOf(db, memberId, now);
  const files = await sweepOrphanInquiryImages(db, media, now);
  return { messages, files };
}
