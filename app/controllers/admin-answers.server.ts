// The admin pages' answer to a module's refusal: its catalogue words and status, for the form that asked
// (decision 067). One helper for every admin controller.
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import type { Refusal } from '#modules/kernel';
import { actionRefused } from '~/lib/admin-action';

/** @example if (!done.ok) return refusedBy(done, intent) */
export const refusedBy = (refusal: Refusal<string>, form: string) => {
  const described = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused(described.message, { form, status: described.status });
};
