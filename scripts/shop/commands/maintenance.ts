// maintenance:on / maintenance:off: maintenance mode from the command line (the same audited action as
// /admin/maintenance). Every instance sees it within MAINTENANCE_CACHE_SECONDS; the draw and the
// checkout refuse at once (docs/decisions/025).
import { setMaintenanceAsOperator } from '#modules/admin';
import { maintenanceEndText, maintenanceSettingSchema, type MaintenanceState } from '#modules/shop';
import { parseWithMessage } from '#modules/kernel';
import { UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

const report = (state: MaintenanceState) =>
  JSON.stringify({
    maintenance: state.on,
    message: state.message,
    endsAt: state.endsAt ? state.endsAt.toISOString() : null,
    endsAtJst: state.endsAt ? maintenanceEndText(state.endsAt) : null,
    changedBy: state.changedBy,
  });

export const maintenanceOn: ShopCommand = {
  name: 'maintenance:on',
  usage: '[--message "会員へのお知らせ"] [--until "2027-01-05 15:00"（日本時間）]',
  options: { message: { type: 'string' }, until: { type: 'string' } },
  async run({ db, out, operator }, { values }) {
    const parsed = parseWithMessage(maintenanceSettingSchema, {
      on: true,
      message: typeof values.message === 'string' ? values.message : '',
      endsAt: typeof values.until === 'string' ? values.until : '',
    });
    if (!parsed.ok) throw new UsageError(parsed.message);
    out(report(settled(await setMaintenanceAsOperator(db, operator, parsed.data))));
  },
};

export const maintenanceOff: ShopCommand = {
  name: 'maintenance:off',
  usage: '',
  options: {},
  async run({ db, out, operator }) {
    out(report(settled(await setMaintenanceAsOperator(db, operator, { on: false, message: null, endsAt: null }))));
  },
};
