// Numbers as a Japanese member reads them: thousands separators everywhere.
const integerFormat = new Intl.NumberFormat('ja-JP', { maximumFractionDigits: 0 });

/** @example formatCoins(12345) === '12,345' */
export const formatCoins = (value: number) => integerFormat.format(value);

/** @example formatYen(500) === '¥500' */
export const formatYen = (value: number) => `¥${integerFormat.format(value)}`;
