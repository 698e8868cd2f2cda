// The fraud signals' refusal words: status and Japanese message of each code (gathered by modules/refusals).
import type { RefusalWords } from '#modules/kernel';
import type { RiskRefusalCode } from './decisions';
import { SIGNAL_STATUS_LABELS } from './words';
import type { SignalStatus } from './schema';

export const RISK_REFUSAL_WORDS: RefusalWords<RiskRefusalCode> = {
  SIGNAL_NOT_FOUND: { status: 404, message: 'そのシグナルは見つかりません。一覧を読み込み直してください。' },
  SIGNAL_ALREADY_DECIDED: {
    status: 409,
    message: (d) =>
      `このシグナルはすでに「${SIGNAL_STATUS_LABELS[d.status as SignalStatus] ?? '対応済み'}」と判断されています。一覧を読み込み直してください。`,
  },
};
