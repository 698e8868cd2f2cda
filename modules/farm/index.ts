// The farm (decision 044): plots, seeds, watering, harvests with a daily cap, friends' watering.
export * from './rules';
export type * from './view';
export { readFarmRules, listFarmSeeds, FARM_RULES_ID } from './store';
export {
  farmViewOf,
  plantSeed,
  waterPlot,
  harvestPlot,
  clearPlot,
  waterFriendFarm,
  friendFarmStatus,
  FARM_REFUSAL_CODES,
  FARM_REASON,
  type FarmRefusalCode,
  type FarmContext,
} from './play';
export * from './operators';
export * from './operator-actions';
export { ripeCropCount } from './nudge';
export { farmSettings } from './settings';
export { FARM_REFUSAL_WORDS, FARM_ADMIN_REFUSAL_WORDS } from './refusal-words';
