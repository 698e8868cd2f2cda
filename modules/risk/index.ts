// The risk module's door (docs/decisions/029): the fraud signals — computed by the job `risk.signals`
// from the sessions, address books, draws and payments (never on a page load) — their list, and the
// operators' decision (clear, hold, ban) with its audit entries in one transaction.
export { fingerprintKeyOf } from './fingerprints';
export { computeSignals, jstDay, type RiskRules, type SignalRun } from './signals';
export {
  RISK_REFUSAL_CODES,
  countOpenSignals,
  decideSignalAsOperator,
  listSignals,
  signalDecisionSchema,
  signalDecisions,
  signalFilterSchema,
  type FraudSignal,
  type RiskRefusalCode,
  type SignalDecision,
  type SignalDecisionInput,
  type SignalFilter,
} from './decisions';
export { SIGNAL_KIND_LABELS, SIGNAL_STATUS_LABELS, describeSignal } from './words';
export { signalKinds, signalStatuses, type SignalKind, type SignalStatus } from './schema';
export { sharedFingerprintKinds, phoneFingerprintOf, deviceFingerprintOf } from './referral';
export { forgetFingerprintLabelsOf, redactSignalNotesOf } from './erasure';
export { riskSettings } from './settings';
export { RISK_REFUSAL_WORDS } from './refusal-words';
