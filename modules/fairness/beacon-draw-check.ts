// One beacon draw checked by the member's own phone (decision 081, §5): the pack's commitment recomputed from its
// terms, the receipt's signature by the committed key, the receipt received before its round (the phone's own
// clock), its place in the head and the chain, the head published before the settling round, the drand beacon's
// BLS signature, and the member's own lots recomputed with oripa-beacon-select-v1. Each check answers ✓, ✗ with
// what failed, or "not checked" with why — in Japanese a member understands. Browser-safe and synchronous.
import { QUICKNET, verifyBeacon } from '#modules/beacon';
import { BEACON_CHECK_NAMES, type TrustedChain } from './beacon-checks';
import {
  beaconCommitment,
  headHash,
  receiptHash,
  settlementRound,
  verifyReceiptSignature,
  type BeaconPackTerms,
  type DrawReceipt,
} from './beacon-mode';
import type { BeaconLog } from './beacon-log';
import { verifyBeaconDraw } from './beacon-verify';

/**
 * The public data that proves one beacon draw (decision 081, §5), as the shop answers it (the API's
 * DrawResult.beacon): the receipt, the pack's committed terms (the phone recomputes the commitment), the head
 * that holds the receipt and the chain to it once its round is closed, and the beacon once settled. The lots
 * are recomputed from the pack's public draw log, not from anything here.
 */
export interface BeaconDrawProof {
  receipt: DrawReceipt;
  terms: BeaconPackTerms;
  /** The head that holds the receipt, once its round is closed. */
  head: {
    round: number;
    head: string;
    prevHead: string;
    publishedAt: string;
    settleRound: number;
    /** The hashes of the head's receipts, by first slot (the chain's input). */
    receiptHashes: string[];
  } | null;
  /** The heads after the receipt's `afterRound` up to its own, oldest first: the chain the receipt joins. */
  path: { round: number; head: string; prevHead: string }[];
  /** Once settled: the beacon that settled the head. */
  settlement: { beacon: { round: number; signature: string; randomness: string } } | null;
}

/** A beacon draw's proof with the shop's signature of its receipt (null when the shop no longer holds the key). */
export interface BeaconDrawEvidence extends BeaconDrawProof {
  signature: string | null;
}

/** What this phone itself saw, and when (Unix ms; null when it did not see it, e.g. the page opened later). */
export interface PhoneSightings {
  receiptReceivedAt: number | null;
  headReceivedAt: number | null;
}

export type BeaconCheckName =
  'commitment' | 'source' | 'signature' | 'receivedInTime' | 'chain' | 'headInTime' | 'beacon' | 'lots';
export type BeaconCheckState = 'ok' | 'failed' | 'unchecked';

export interface BeaconDrawCheck {
  name: BeaconCheckName;
  label: string;
  state: BeaconCheckState;
  detail: string;
}

export const BEACON_CHECK_LABELS: Record<BeaconCheckName, string> = {
  commitment: 'ガチャの約束（コミットメント）',
  source: '乱数の出どころ',
  signature: '受付証の署名',
  receivedInTime: '乱数が決まる前に受付',
  chain: '受付の記録（チェーン）',
  headInTime: '記録の公開は乱数の前',
  beacon: '乱数ビーコンの署名（drand）',
  lots: 'あなたの当選の再計算',
};

const roundTimeOf = (terms: BeaconPackTerms, round: number) =>
  (terms.beacon.genesisTime + (round - 1) * terms.beacon.period) * 1000;
/** A moment to the millisecond in Japan time (the shop's zone, no daylight saving): 05:13:40.404. */
const clock = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(11, 23);

/**
 * Checks one beacon draw. `wonTiers` are the tiers the shop says this draw won, by slot (lot k = the k-th
 * smallest slot); empty while it is not settled.
 * @example const checks = checkBeaconDraw(evidence, { receiptReceivedAt: Date.now(), headReceivedAt: null }, tiers)
 */
export function checkBeaconDraw(
  evidence: BeaconDrawEvidence,
  seen: PhoneSightings,
  wonTiers: string[],
  options: {
    /**
     * Chains trusted besides quicknet, whose randomness nobody can make alone. Only a sandbox shop adds its drand
     * stand-in (`label` says so on the page): a chain whose key the shop holds could settle with randomness it made.
     */
    alsoTrust?: readonly (TrustedChain & { label: string })[];
    /**
     * The pack's public draw log through this draw's head (readBeaconLog with `until`): the member's lots are
     * recomputed from it, as any tracker would. Absent while it loads; `{ unavailable }` when it could not be read.
     */
    log?: BeaconLog | { unavailable: string };
  } = {},
): BeaconDrawCheck[] {
  const { receipt, terms } = evidence;
  const checks: BeaconDrawCheck[] = [];
  const add = (name: BeaconCheckName, state: BeaconCheckState, detail: string) =>
    checks.push({ name, label: BEACON_CHECK_LABELS[name], state, detail });
  const roundTime = roundTimeOf(terms, receipt.round);

  let commitmentOk = false;
  try {
    commitmentOk = beaconCommitment(terms) === receipt.commitment;
  } catch {
    commitmentOk = false;
  }
  add(
    'commitment',
    commitmentOk ? 'ok' : 'failed',
    commitmentOk
      ? `販売開始時に公開されたコミットメント ${receipt.commitment.slice(0, 12)}… と、賞の構成・乱数の出どころ・署名鍵が一致しました。`
      : '受付証のコミットメントが、ガチャの賞の構成・乱数の出どころ・署名鍵から計算した値と一致しません。',
  );

  add('source', ...sourceCheck(terms.beacon, [QUICKNET_TRUSTED, ...(options.alsoTrust ?? [])]));

  const signed = evidence.signature !== null && verifyReceiptSignature(receipt, evidence.signature, terms.receiptKey);
  add(
    'signature',
    signed ? 'ok' : 'failed',
    signed
      ? 'ショップの公開鍵（コミットメントに含まれる鍵）による正しい署名です。'
      : '受付証の署名が、コミットメントにある公開鍵で検証できません。',
  );

  if (seen.receiptReceivedAt === null)
    add(
      'receivedInTime',
      'unchecked',
      'このスマホが受付証を受け取った時刻が記録されていません（引いた端末と違う、または後から開いたページです）。',
    );
  else
    add(
      'receivedInTime',
      // Late is not proof of anything (a slow network or phone, a wrong clock), so it is not ✗: this phone simply
      // cannot vouch for it, and says why. The log's own checks (the round from the acceptance, the head before
      // the beacon) still hold the shop to its times.
      seen.receiptReceivedAt < roundTime ? 'ok' : 'unchecked',
      seen.receiptReceivedAt < roundTime
        ? `このスマホは ${clock(seen.receiptReceivedAt)} に受付証を受け取り、ラウンド ${receipt.round} の公開（${clock(roundTime)}）より前でした（日本時間）。`
        : `このスマホが受付証を受け取ったのは ${clock(seen.receiptReceivedAt)} で、ラウンド ${receipt.round} の公開（${clock(roundTime)}）より後でした。通信や端末が遅かった（または時計がずれている）ため、このスマホでは確かめられません。`,
    );

  const head = evidence.head;
  if (!head) add('chain', 'unchecked', 'このラウンドの記録（ヘッド）はまだ公開されていません。');
  else {
    const problems = chainProblems(evidence, head);
    add(
      'chain',
      problems.length === 0 ? 'ok' : 'failed',
      problems.length === 0
        ? `ラウンド ${head.round} の記録 ${head.head.slice(0, 12)}… に、あなたの受付証（${head.receiptHashes.length}件中）が含まれ、前の記録につながっています。`
        : `${problems.join('。')}。`,
    );
  }

  if (!head) {
    add('headInTime', 'unchecked', '記録（ヘッド）の公開を待っています。');
  } else {
    const publishedAt = Date.parse(head.publishedAt);
    const expected = settlementRound(terms.beacon, head.round, publishedAt);
    const settleTime = roundTimeOf(terms, head.settleRound);
    if (expected !== head.settleRound)
      add(
        'headInTime',
        'failed',
        `記録の公開時刻からは乱数にラウンド ${expected} を使うはずですが、ラウンド ${head.settleRound} が使われています。`,
      );
    else if (seen.headReceivedAt === null)
      add(
        'headInTime',
        'unchecked',
        `ショップの記録ではラウンド ${head.settleRound} の公開前に記録されました。このスマホ自身はその前に記録を受け取っていません（確認できるのは待っている間にこのページを開いていた場合です）。`,
      );
    else
      add(
        'headInTime',
        // Late, as for the receipt: this phone cannot vouch for it, which is no evidence against the shop.
        seen.headReceivedAt < settleTime ? 'ok' : 'unchecked',
        seen.headReceivedAt < settleTime
          ? `このスマホは ${clock(seen.headReceivedAt)} に記録を受け取りました。使われる乱数（ラウンド ${head.settleRound}、${clock(settleTime)} 公開）より前です。`
          : `このスマホが記録を受け取ったのは、使われた乱数の公開（${clock(settleTime)}）より後でした。このスマホでは確かめられません。`,
      );
  }

  const settlement = evidence.settlement;
  if (!settlement || !head) {
    add('beacon', 'unchecked', `乱数ビーコン（ラウンド ${head?.settleRound ?? receipt.round}）の公開を待っています。`);
    add('lots', 'unchecked', '抽選が確定すると、あなたの当選をこのスマホで再計算します。');
    return checks;
  }
  const verified = verifyBeacon(
    { schemeID: terms.beacon.scheme, public_key: terms.beacon.publicKey },
    settlement.beacon,
    head.settleRound,
  );
  add(
    'beacon',
    verified.valid ? 'ok' : 'failed',
    verified.valid
      ? `ラウンド ${head.settleRound} の乱数を、このチェーンのしきい値署名（BLS）として検証しました。`
      : `乱数ビーコンの検証に失敗しました: ${verified.detail}`,
  );
  add('lots', ...lotsFromLog(evidence, wonTiers, options.log, options.alsoTrust ?? []));
  return checks;
}

/**
 * The member's lots recomputed from the pack's public draw log (what the earlier settled receipts left, this
 * round's receipts in chain order, the round's beacon): the log must hold the very receipt this phone received,
 * in the head the shop showed it, and give the tiers the result page shows.
 */
function lotsFromLog(
  evidence: BeaconDrawEvidence,
  wonTiers: string[],
  log: BeaconLog | { unavailable: string } | undefined,
  alsoTrust: readonly TrustedChain[],
): [BeaconCheckState, string] {
  if (!log) return ['unchecked', '公開抽選ログを読み込んで、あなたの当選を再計算しています…'];
  if ('unavailable' in log)
    return [
      'unchecked',
      `公開抽選ログを読み込めませんでした（${log.unavailable}）。ページを再読み込みすると、もう一度確認します。`,
    ];
  const { receipt } = evidence;
  const verified = verifyBeaconDraw({
    log,
    drawId: receipt.drawId,
    phone: { receipt, ...(evidence.signature === null ? {} : { signature: evidence.signature }) },
    trustedChains: alsoTrust,
  });
  const problems = verified.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
  const logHead = log.heads.find((h) => h.round === receipt.round);
  if (evidence.head && logHead && logHead.head !== evidence.head.head)
    problems.push('公開抽選ログの記録（ヘッド）が、このページに示された記録と違います');
  if (problems.length === 0 && !verified.settled) problems.push('公開抽選ログでは、この抽選はまだ確定していません');
  const mine = verified.lots;
  if (problems.length === 0 && (!mine || mine.length !== wonTiers.length || mine.some((t, k) => t !== wonTiers[k])))
    problems.push('公開抽選ログから再計算した当選が、表示されている結果と一致しません');
  if (problems.length > 0) return ['failed', `${problems.join('。')}。`];
  const lots = verified.checks.find((c) => c.name === BEACON_CHECK_NAMES.lots)!;
  return [
    'ok',
    `公開抽選ログ（誰でも読めるこのガチャの全記録）から、あなたの ${mine!.length}口 を再計算し、結果と一致しました。${lots.detail}。`,
  ];
}

/** What is wrong with the receipt's place in its head and in the pack's chain (empty: nothing). */
function chainProblems(evidence: BeaconDrawEvidence, head: NonNullable<BeaconDrawEvidence['head']>): string[] {
  const { receipt } = evidence;
  const problems: string[] = [];
  if (head.round !== receipt.round)
    problems.push(`記録のラウンド ${head.round} が受付証のラウンド ${receipt.round} と違います`);
  if (!head.receiptHashes.includes(receiptHash(receipt)))
    problems.push('あなたの受付証がこのラウンドの記録に含まれていません');
  let recomputed = '';
  try {
    recomputed = headHash(head.prevHead, head.round, head.receiptHashes);
  } catch {
    recomputed = '';
  }
  if (recomputed !== head.head) problems.push('記録（ヘッド）が、含まれる受付証から計算した値と一致しません');
  // The chain from the head the receipt names to its own: each head names the one before it.
  let previous = receipt.afterHead;
  for (const link of evidence.path) {
    if (link.prevHead !== previous) {
      problems.push(`ラウンド ${link.round} の記録が前の記録につながっていません`);
      break;
    }
    previous = link.head;
  }
  if (previous !== head.head) problems.push('受付証が指す記録から、このラウンドの記録までがつながっていません');
  return problems;
}

const QUICKNET_TRUSTED = { ...QUICKNET, label: 'League of Entropy の quicknet' };

/** Whether the committed chain is one nobody can make randomness for alone (quicknet, or what the caller trusts). */
function sourceCheck(
  source: BeaconPackTerms['beacon'],
  trustedChains: readonly (TrustedChain & { label: string })[],
): [BeaconCheckState, string] {
  const trusted = trustedChains.find(
    (c) =>
      c.hash === source.chainHash &&
      c.schemeID === source.scheme &&
      c.public_key.toLowerCase() === source.publicKey &&
      c.genesis_time === source.genesisTime &&
      c.period === source.period,
  );
  return trusted
    ? [
        'ok',
        `${trusted.label}（チェーン ${source.chainHash.slice(0, 12)}…）。独立した運営者のしきい値署名で、誰も一人では乱数を作れません。`,
      ]
    : [
        'failed',
        `このガチャの乱数のチェーン ${source.chainHash.slice(0, 12)}… は、信頼できる公開チェーン（quicknet）ではありません。鍵をショップが持つチェーンなら、ショップが乱数を作れます。`,
      ];
}
