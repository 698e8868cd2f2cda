// The content every shop starts with (docs/decisions/039): the legal pages, 「オリパの排出について」 and
// 「アカウントの利用制限について」 (decision 084). They are added on
// every start when missing (an edited or deleted page is never overwritten) and then belong to the operators.
import type { ContentDocumentInput } from '../index';
import { accountPolicyPage, type AccountPolicyFacts } from './account-policy';
import { legalPages, type LegalFacts } from './legal';
import { oripaHaishutsuPage } from './oripa-haishutsu';

export { accountPolicyPage, type AccountPolicyFacts } from './account-policy';
export { legalPages, kobutsuFooterNote, type LegalFacts, type LegalPageSeed } from './legal';

/**
 * The shop's default documents as content_documents rows, published now.
 * @example await addDocuments(db, defaultContentDocuments(legalFactsOf(config)))
 */
export function defaultContentDocuments(
  facts: LegalFacts & AccountPolicyFacts,
  now = new Date(),
): ContentDocumentInput[] {
  return [...legalPages(facts), oripaHaishutsuPage, accountPolicyPage(facts)].map((page) => ({
    id: `default-${page.type}-${page.uid}`,
    type: page.type,
    uid: page.uid,
    data: page.data,
    publishedAt: now,
  }));
}
