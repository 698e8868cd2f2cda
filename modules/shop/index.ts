// The shop module's door: shop-wide state, for now maintenance mode (docs/decisions/025): the switch,
// the exact check of the money paths, and the short per-instance cache of every other path.
export {
  DEFAULT_MAINTENANCE_MESSAGE,
  MAINTENANCE_MESSAGE_MAX_LENGTH,
  MAINTENANCE_REFUSAL_CODES,
  MAINTENANCE_SETTING_REFUSAL_CODES,
  createMaintenanceCache,
  maintenanceDetails,
  maintenanceEndText,
  maintenanceRefusal,
  maintenanceSettingRefusal,
  maintenanceSettingSchema,
  parseShopDateTime,
  readMaintenance,
  setMaintenance,
  type MaintenanceCache,
  type MaintenanceRefusalCode,
  type MaintenanceSetting,
  type MaintenanceSettingRefusalCode,
  type MaintenanceState,
} from './maintenance';
export { shopSettings } from './settings';
export { MAINTENANCE_REFUSAL_WORDS } from './refusal-words';
