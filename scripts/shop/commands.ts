// Every operator command, in the order the usage lists them (one file each in commands/); the ones that
// need no database last.
import type { OfflineShopCommand, ShopCommand } from './command';
import { packCreate } from './commands/pack-create';
import { packPublish } from './commands/pack-publish';
import { packEnd } from './commands/pack-end';
import { stockReceive } from './commands/stock-receive';
import { stockList } from './commands/stock-list';
import { packReveal } from './commands/pack-reveal';
import { coinsGrant } from './commands/coins-grant';
import { membersCreate } from './commands/members-create';
import { staffGrant } from './commands/staff-grant';
import { membersAge } from './commands/members-age';
import { membersClearHold } from './commands/members-clear-hold';
import { coinpacksList } from './commands/coinpacks-list';
import { coinpacksSet } from './commands/coinpacks-set';
import { ordersList } from './commands/orders-list';
import { ordersRefund } from './commands/orders-refund';
import { reportUnusedPaid } from './commands/report-unused-paid';
import { invariants } from './commands/invariants';
import { addressesRekey } from './commands/addresses-rekey';
import { shippingRekey } from './commands/shipping-rekey';
import { maintenanceOff, maintenanceOn } from './commands/maintenance';
import { closureAnnounce, closureCancel, closureRefundPaid, closureReport, closureStatus } from './commands/closure';
import { backup } from './commands/backup';
import { mediaUploadLocal } from './commands/media-upload-local';

export const SHOP_COMMANDS: readonly ShopCommand[] = [
  packCreate,
  packPublish,
  packEnd,
  packReveal,
  stockReceive,
  stockList,
  coinsGrant,
  membersCreate,
  staffGrant,
  membersAge,
  membersClearHold,
  coinpacksList,
  coinpacksSet,
  ordersList,
  ordersRefund,
  reportUnusedPaid,
  addressesRekey,
  shippingRekey,
  maintenanceOn,
  maintenanceOff,
  closureAnnounce,
  closureStatus,
  closureCancel,
  closureRefundPaid,
  closureReport,
  invariants,
  backup,
];

/** The commands that need no database (they run on the operator's machine, with its settings). */
export const OFFLINE_COMMANDS: readonly OfflineShopCommand[] = [mediaUploadLocal];
