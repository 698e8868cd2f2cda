// Shared labels for packs and prizes.

/** @example drawOptionLabel(1) === '1回'; drawOptionLabel(10) === '10連' */
export const drawOptionLabel = (count: number) => (count === 1 ? '1回' : `${count}連`);

/** Chip colours by the tier's animation class (contrast checked against white text). */
export const TIER_CHIP: Record<string, string> = {
  lastone: 'bg-tier-last text-white',
  rainbow: 'bg-gradient-to-r from-fuchsia-700 via-violet-700 to-sky-700 text-white',
  gold: 'bg-amber-700 text-white',
  silver: 'bg-slate-600 text-white',
  normal: 'bg-slate-500 text-white',
};
