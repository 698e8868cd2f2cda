// invariants: check every money and lot invariant (coins, lots, purchases); exit code 1 if any fails.
import { checkInvariants } from '#modules/wallet';
import { checkPaymentInvariants } from '#modules/payments';
import type { ShopCommand } from '../command';

export const invariants: ShopCommand = {
  name: 'invariants',
  usage: '',
  options: {},
  async run({ db, out }) {
    const violations = [...(await checkInvariants(db)), ...(await checkPaymentInvariants(db))];
    out(JSON.stringify({ ok: violations.length === 0, violations }));
    return violations.length ? 1 : 0;
  },
};
