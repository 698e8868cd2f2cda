// The operators' audited actions on the farm (/admin/farm, decision 044): its rules, the pause switch and
// the seed table, each through the admin module's runAdminAction with 'farm:write', so the change and its
// audit entry commit together (a refused or invalid change leaves neither). Each takes the form's fields or the API's JSON
// and checks them with the farm's schema inside the action: FARM_INPUT_INVALID carries a message per field.
// They live here, not in modules/admin: the farm reaches the admin module through friends → invitation →
// risk, so admin cannot call the farm (MODULE_DEPENDENCIES); like support and shipping, the farm calls admin.
import type { Database } from '#db/client';
import { runAdminAction, type Operator, type OperatorOutcome } from '#modules/admin';
import { refuse, RefusalError } from '#modules/kernel';
import {
  deleteFarmSeed,
  farmInputOf,
  farmRulesSchema,
  farmSeedSchema,
  saveFarmSeed,
  setFarmPaused,
  setFarmRules,
} from './operators';
import type { FarmRules, FarmSeed } from './rules';

/**
 * Changes the farm's rules (`farm.rules`), with the rules before and after.
 * @example await updateFarmRulesAsOperator(db, operator, { plotUnlockLevels: '1,1,1,1,5', waterCooldownMinutes: '480', … })
 */
export async function updateFarmRulesAsOperator(
  db: Database,
  operator: Operator,
  input: unknown,
): Promise<OperatorOutcome<FarmRules>> {
  return runAdminAction(db, operator, 'farm:write', async (tx) => {
    const rules = farmInputOf(farmRulesSchema, input);
    const { before, after } = await setFarmRules(tx, rules, operator.label);
    return { value: after, audit: { action: 'farm.rules', target: { type: 'farm', id: 'rules' }, before, after } };
  });
}

/**
 * Pauses or resumes the farm (`farm.pause` / `farm.resume`). Pausing again what is paused records nothing.
 * @example await pauseFarmAsOperator(db, operator, true)
 */
export async function pauseFarmAsOperator(
  db: Database,
  operator: Operator,
  paused: boolean,
): Promise<OperatorOutcome<FarmRules>> {
  return runAdminAction(db, operator, 'farm:write', async (tx) => {
    const { before, after } = await setFarmPaused(tx, paused, operator.label);
    return {
      value: after,
      audit:
        before.paused === after.paused
          ? []
          : {
              action: paused ? 'farm.pause' : 'farm.resume',
              target: { type: 'farm', id: 'rules' },
              before: { paused: before.paused },
              after: { paused: after.paused },
            },
    };
  });
}

/**
 * Adds (`intent` 'create': refused when the id is taken) or edits (`'update'`: refused when it is gone)
 * a seed (`farm.seed.create` / `farm.seed.update`), with the seed before and after.
 * @example await saveFarmSeedAsOperator(db, operator, { id: 'melon', name: 'メロン', art: 'pumpkin', growMinutes: 600, … }, 'create')
 */
export async function saveFarmSeedAsOperator(
  db: Database,
  operator: Operator,
  input: unknown,
  intent: 'create' | 'update',
): Promise<OperatorOutcome<FarmSeed>> {
  return runAdminAction(db, operator, 'farm:write', async (tx) => {
    const seed = farmInputOf(farmSeedSchema, input);
    const { before, after } = await saveFarmSeed(tx, seed);
    if (intent === 'create' && before) throw new RefusalError(refuse('FARM_SEED_TAKEN', { seedId: seed.id }));
    if (intent === 'update' && !before) throw new RefusalError(refuse('FARM_SEED_NOT_FOUND', { seedId: seed.id }));
    return {
      value: after,
      audit: {
        action: before ? 'farm.seed.update' : 'farm.seed.create',
        target: { type: 'farm_seed', id: seed.id },
        before,
        after,
      },
    };
  });
}

/**
 * Deletes a seed nobody ever planted (`farm.seed.delete`); a planted one is refused (FARM_SEED_PLANTED).
 * @example await deleteFarmSeedAsOperator(db, operator, 'melon')
 */
export async function deleteFarmSeedAsOperator(
  db: Database,
  operator: Operator,
  seedId: string,
): Promise<OperatorOutcome<FarmSeed>> {
  return runAdminAction(db, operator, 'farm:write', async (tx) => {
    const { before } = await deleteFarmSeed(tx, seedId);
    return {
      value: before,
      audit: { action: 'farm.seed.delete', target: { type: 'farm_seed', id: seedId }, before, after: null },
    };
  });
}
