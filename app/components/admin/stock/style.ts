// The stock page's input look, its numbers in Japanese format, and its busy test.

export const input = 'mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm';
export const n = (value: number) => value.toLocaleString('ja-JP');
export type BusyOn = (intent: string, id?: string) => boolean;
