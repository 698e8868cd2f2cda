// The pack editor's steps as admin actions (packs:write): each step of a draft, a tier's photo and a
// copy of a pack run through runAdminAction, so the change and its audit entry commit together. A
// published pack refuses every step (NOT_DRAFT): its lots are fixed by the commitment.
import type { Database } from '#db/client';
import {
  copyPackToDraft,
  createDraft,
  setDraftTierImage,
  setDraftTiers,
  updateDraft,
  type PackBasics,
  type TierPhoto,
  type TierRow,
} from '#modules/gacha';
import { runAdminAction, type Operator } from './audit';
import type { OperatorOutcome } from './operations';

const target = (id: string) => ({ type: 'gacha', id });

/** Step 1 of a new pack (`pack.draft.create`). */
export async function createDraftAsOperator(
  db: Database,
  operator: Operator,
  basics: PackBasics,
): Promise<OperatorOutcome<{ id: string }>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    await createDraft(tx, basics);
    return {
      value: { id: basics.id },
      audit: { action: 'pack.draft.create', target: target(basics.id), after: { ...basics, status: 'draft' } },
    };
  });
}

/** A step of a draft's own fields (`pack.draft.update`): basics, sale terms or the pack's image. */
export async function updateDraftAsOperator(
  db: Database,
  operator: Operator,
  gachaId: string,
  patch: Parameters<typeof updateDraft>[2],
): Promise<OperatorOutcome<null>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const { before, after } = await updateDraft(tx, gachaId, patch);
    return { value: null, audit: { action: 'pack.draft.update', target: target(gachaId), before, after } };
  });
}

/** The draft's tier list replaced whole (`pack.draft.tiers`). */
export async function setDraftTiersAsOperator(
  db: Database,
  operator: Operator,
  gachaId: string,
  rows: TierRow[],
): Promise<OperatorOutcome<null>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const { before, after } = await setDraftTiers(tx, gachaId, rows);
    return { value: null, audit: { action: 'pack.draft.tiers', target: target(gachaId), before, after } };
  });
}

/** A tier's photo (`pack.draft.tier-image`), with a graded card's original and its SHA-256 in the entry. */
export async function setDraftTierImageAsOperator(
  db: Database,
  operator: Operator,
  gachaId: string,
  key: string,
  imagePath: string,
  original: TierPhoto | null = null,
): Promise<OperatorOutcome<null>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    await setDraftTierImage(tx, gachaId, key, imagePath, original);
    return {
      value: null,
      audit: {
        action: 'pack.draft.tier-image',
        target: target(gachaId),
        after: original ? { tier: key, imagePath, original } : { tier: key, imagePath },
      },
    };
  });
}

/** A new draft from any pack (`pack.copy`). */
export async function copyPackAsOperator(
  db: Database,
  operator: Operator,
  fromId: string,
  to: { id: string; title: string },
): Promise<OperatorOutcome<{ id: string }>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const copied = await copyPackToDraft(tx, fromId, to);
    return {
      value: copied,
      audit: { action: 'pack.copy', target: target(to.id), after: { from: fromId, title: to.title, status: 'draft' } },
    };
  });
}
