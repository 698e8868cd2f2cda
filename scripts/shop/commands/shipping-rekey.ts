// shipping:rekey: after a key rotation, seal every shipping request's copy of its address still under an
// older key with the first key of ADDRESS_ENCRYPTION_KEYS (docs/decisions/019, with addresses:rekey).
import { rekeyShippingRequests } from '#modules/shipping';
import { integerOption, UsageError } from '../args';
import type { ShopCommand } from '../command';

export const shippingRekey: ShopCommand = {
  name: 'shipping:rekey',
  usage:
    '[--batch N]                                     発送依頼の配送先を最新の暗号鍵で暗号化し直す（鍵の入れ替え後）',
  options: { batch: { type: 'string' } },
  async run({ db, out, addressKeyring }, { values }) {
    if (!addressKeyring?.length)
      throw new UsageError('住所の暗号鍵（ADDRESS_ENCRYPTION_KEYS）が読み込まれていません。');
    const batchSize = integerOption(values, 'batch', { min: 1, max: 10_000, fallback: 500 });
    out(JSON.stringify(await rekeyShippingRequests(db, addressKeyring, { batchSize })));
  },
};
