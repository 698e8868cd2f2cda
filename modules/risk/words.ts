// The Japanese words of the signals list: each kind's name, each status's, and a signal's evidence as
// one readable line with the other members it names (links on the page).
import type { SignalKind, SignalStatus } from './schema';

export const SIGNAL_KIND_LABELS: Readonly<Record<SignalKind, string>> = {
  shared_device: '同じ端末',
  shared_address: '同じ配送先',
  shared_phone: '同じ電話番号',
  velocity_draws: 'ガチャの回数・消費が多い',
  velocity_spend: '購入額が多い',
  chargeback: 'チャージバック',
};

export const SIGNAL_STATUS_LABELS: Readonly<Record<SignalStatus, string>> = {
  open: '未対応',
  cleared: '問題なし',
  held: '購入・発送停止',
  banned: '利用停止',
};

const n = (value: unknown) => Number(value ?? 0).toLocaleString('ja-JP');

/**
 * A signal's evidence in Japanese, and the other members it names.
 * @example describeSignal({ kind: 'shared_address', memberId: 'a', evidence: { count: 3, members: ['a', 'b', 'c'] } })
 * // { text: '同じ配送先に3アカウント', others: ['b', 'c'] }
 */
export function describeSignal(signal: { kind: SignalKind; memberId: string; evidence: Record<string, unknown> }): {
  text: string;
  detail: string | null;
  others: string[];
} {
  const e = signal.evidence;
  const members = Array.isArray(e.members) ? (e.members as unknown[]).filter((m) => typeof m === 'string') : [];
  const others = (members as string[]).filter((m) => m !== signal.memberId);
  switch (signal.kind) {
    case 'shared_device':
      return {
        text: `同じ端末（IPアドレスとブラウザ）から${n(e.count)}アカウント`,
        detail: typeof e.label === 'string' ? e.label : null,
        others,
      };
    case 'shared_address':
      return { text: `同じ配送先に${n(e.count)}アカウント`, detail: null, others };
    case 'shared_phone':
      return { text: `同じ電話番号（配送先）に${n(e.count)}アカウント`, detail: null, others };
    case 'velocity_draws':
      return {
        text: `24時間で${n(e.draws)}回・${n(e.coins)}コインのガチャ`,
        detail: `しきい値：${n(e.thresholdDraws)}回または${n(e.thresholdCoins)}コイン`,
        others: [],
      };
    case 'velocity_spend':
      return {
        text: `24時間で${n(e.orders)}件・${n(e.amountJpy)}円の購入`,
        detail: `しきい値：${n(e.thresholdJpy)}円`,
        others: [],
      };
    case 'chargeback':
      return {
        text: `チャージバック ${n(e.amountJpy)}円（受付番号 ${String(e.receiptNo ?? '')}）`,
        detail: Number(e.unrecoveredCoins ?? 0) > 0 ? `回収できなかったコイン：${n(e.unrecoveredCoins)}枚` : null,
        others: [],
      };
  }
}
