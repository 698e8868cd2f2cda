// What the inquiry page's parts share: its loader's data, which action is running, and its fields' look.
import type { inquiryLoader } from '~/controllers/admin-inquiries.server';

/** What the inquiry page's loader gives the page. */
export type InquiryPage = Awaited<ReturnType<typeof inquiryLoader>>;
export type BusyOn = (intent: string) => boolean;

export const field = 'mt-1 block w-full rounded-lg border border-line bg-white px-3 text-sm';
