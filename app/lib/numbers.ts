// Numbers as a Japanese member reads them: thousands separators everywhere. The coins' format is the
// kernel's, which the server's filler of members' pages also uses (docs/decisions/077).
import { formatCoins } from '#modules/kernel/personal-holes';

export { formatCoins };

/** @example formatYen(500) === '¥500' */
export const formatYen = (value: number) => `¥${formatCoins(value)}`;
