// The operators' actions on the home banners (/admin/banners): each through runAdminAction with
// 'content:write', so the change and its audit entry commit together (docs/decisions/031).
import type { Database } from '#db/client';
import { moveBanner, saveBanner, setBannerActive, type BannerAdminView, type BannerForm } from '#modules/content';
import { runAdminAction, type Operator } from './audit';
import type { OperatorOutcome } from './operations';

/**
 * Creates (`uid` null) or edits a banner (`banner.create` / `banner.update`), with the banner before and after.
 * @example await saveBannerAsOperator(db, operator, { uid: null, form, image: '/media/banners/….webp' })
 */
export async function saveBannerAsOperator(
  db: Database,
  operator: Operator,
  input: { uid: string | null; form: BannerForm; image: string | null },
): Promise<OperatorOutcome<BannerAdminView>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const { before, after } = await saveBanner(tx, input);
    return {
      value: after,
      audit: {
        action: before ? 'banner.update' : 'banner.create',
        target: { type: 'banner', id: after.uid },
        before,
        after,
      },
    };
  });
}

/** Switches a banner on or off (`banner.activate` / `banner.deactivate`). */
export async function setBannerActiveAsOperator(
  db: Database,
  operator: Operator,
  uid: string,
  active: boolean,
): Promise<OperatorOutcome<BannerAdminView>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const { before, after } = await setBannerActive(tx, uid, active);
    return {
      value: after,
      audit: {
        action: active ? 'banner.activate' : 'banner.deactivate',
        target: { type: 'banner', id: uid },
        before: { active: before.active },
        after: { active: after.active },
      },
    };
  });
}

/** Moves a banner one place up or down (`banner.move`), with the orders that changed. */
export async function moveBannerAsOperator(
  db: Database,
  operator: Operator,
  uid: string,
  direction: 'up' | 'down',
): Promise<OperatorOutcome<{ uid: string; order: number }[]>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const changed = await moveBanner(tx, uid, direction);
    return {
      value: changed,
      audit: { action: 'banner.move', target: { type: 'banner', id: uid }, after: { direction, changed } },
    };
  });
}
