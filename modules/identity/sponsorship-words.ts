// The words of sponsored accounts (decision 083), safe for the browser: the kinds an operator chooses and the
// 「PR」 label members see with what it means.
import type { SponsorshipKind } from './schema';

export const SPONSORSHIP_KIND_LABELS: Record<SponsorshipKind, string> = {
  streamer: '配信者',
  affiliate: 'アフィリエイト',
};

/** The label every sponsored appearance carries, and what it means (its accessible name and tooltip). */
export const PR_LABEL = 'PR';
export const PR_LABEL_MEANING = '当ショップと提携している会員（広告・宣伝を含みます）';
