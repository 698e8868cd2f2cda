// The Merpay stand-in's test controls.
import type { MerpayStandinTransaction } from './index';
import { decide } from './callbacks';
import type { MerpayState } from './state';

export function mustGet(state: MerpayState, id: string): MerpayStandinTransaction {
  const t = state.transactions.get(id);
  if (!t) throw new Error(`merpay stand-in: no transaction ${id}`);
  return t;
}

export async function control(state: MerpayState, id: string, action: 'approve' | 'decline' | 'cancel') {
  const t = mustGet(state, id);
  const result = await decide(state, t, action);
  if ('problem' in result) throw new Error(`merpay stand-in: ${result.problem}`);
  return { transaction: structuredClone(t), redirectUrl: result.redirectUrl };
}
