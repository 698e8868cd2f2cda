// The farm (decision 044): plots, seeds, watering, harvests with a daily cap, friends' watering. The door
// only re-exports (issue 30 item 1): the rules as pure functions (rules.ts), the page's shapes (view.ts),
// the stored rules and seeds (store.ts), the member's farm (farm-view.ts), their plots (plots.ts), friends'
// watering (friend-watering.ts), the refusals and the frame of every action (play.ts), the operators'
// settings and figures (operators.ts, operator-actions.ts), the nudge (nudge.ts).
export {
  FARM_CROP_ARTS,
  FARM_GROW_MINUTES_MIN,
  FARM_GROW_MINUTES_MAX,
  farmDayOf,
  nextFarmDayStart,
  previousFarmDay,
  plotCountFor,
  witherAtOf,
  plotStateAt,
  growthOf,
  stageOf,
  nextWaterAtOf,
  canWaterAt,
  wateredReadyAt,
  cappedCoins,
  plotLabelOf,
  type FarmCropArt,
  type FarmRules,
  type FarmSeed,
  type PlotRecord,
  type PlotState,
  type GrowthStage,
} from './rules';
export type { FarmPlotView, FarmSeedView, FarmView, FarmActionResult } from './view';
export { readFarmRules, listFarmSeeds, FARM_RULES_ID } from './store';
export { farmViewOf } from './farm-view';
export { plantSeed, waterPlot, harvestPlot, clearPlot } from './plots';
export { waterFriendFarm, friendFarmStatus } from './friend-watering';
export { FARM_REFUSAL_CODES, FARM_REASON, type FarmRefusalCode, type FarmContext } from './play';
export {
  FARM_ADMIN_REFUSAL_CODES,
  FARM_ECONOMY_MAX_DAYS,
  FARM_STARTING_PLOTS_MAX,
  FARM_PLOTS_MAX,
  FARM_SEED_NAME_MAX,
  farmRulesSchema,
  farmSeedSchema,
  farmEconomyRangeSchema,
  farmInputOf,
  setFarmRules,
  setFarmPaused,
  saveFarmSeed,
  deleteFarmSeed,
  FARM_ECONOMY_DEFAULT_DAYS,
  defaultFarmEconomyRange,
  farmEconomy,
  type FarmAdminRefusalCode,
  type FarmRulesInput,
  type FarmSeedInput,
  type FarmEconomyDay,
  type FarmEconomy,
} from './operators';
export {
  updateFarmRulesAsOperator,
  pauseFarmAsOperator,
  saveFarmSeedAsOperator,
  deleteFarmSeedAsOperator,
} from './operator-actions';
export { ripeCropCount } from './nudge';
export { farmSettings } from './settings';
export { FARM_REFUSAL_WORDS, FARM_ADMIN_REFUSAL_WORDS } from './refusal-words';
