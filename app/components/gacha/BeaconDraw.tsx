// A beacon draw on its result page (decision 081): while it waits for its drand round, the 抽選中 screen with
// the round's countdown and the phone's checks as each becomes possible; once settled, the checks of the whole
// draw, computed here in the member's own browser from the moment the reveal starts — its lots recomputed from
// the pack's public draw log — shown as a badge on the reveal and under the cards after it. What this phone
// saw, and when (the receipt, the head), is kept in sessionStorage for the draw, so a reload still knows it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  BEACON_LOG_MAX_PAGE,
  checkBeaconDraw,
  readBeaconLog,
  type BeaconLog,
  type BeaconDrawCheck,
  type BeaconDrawEvidence,
  type TrustedChain,
  type PhoneSightings,
} from '#modules/fairness/browser';

/** The reveal waits this long past the round's time before it says the result will come by mail (server REVEAL_WAIT_MS). */
const LATE_AFTER_MS = 12_000;
const POLL_MS = 700;

/** A chain trusted besides quicknet (a sandbox shop's stand-in), with the words the page shows for it. */
export type TrustedChainView = TrustedChain & { label: string };

export interface BeaconDrawView extends BeaconDrawEvidence {
  settled: boolean;
  roundTime: string;
  closesAt: string;
}

const storageKey = (drawId: string) => `oripa:beacon:${drawId}`;

function readSeen(drawId: string): PhoneSightings {
  try {
    const raw = sessionStorage.getItem(storageKey(drawId));
    const parsed = raw ? (JSON.parse(raw) as Partial<PhoneSightings>) : {};
    return { receiptReceivedAt: parsed.receiptReceivedAt ?? null, headReceivedAt: parsed.headReceivedAt ?? null };
  } catch {
    return { receiptReceivedAt: null, headReceivedAt: null };
  }
}

function writeSeen(drawId: string, seen: PhoneSightings) {
  try {
    sessionStorage.setItem(storageKey(drawId), JSON.stringify(seen));
  } catch {
    // private mode: the checks say "not checked" for what was not kept
  }
}

/**
 * What this phone saw of the draw, by its own clock. On the draw's own first view (`fresh`: the reveal's URL,
 * right after the draw) the receipt is noted as received now — the page is shown after its data arrived, so
 * the moment is never earlier than the truth. The head is noted only by the waiting screen, when it first holds
 * it and only before `headDeadline` (the settling round's time), read at that moment: a page opened after the
 * round, or a poll answered after it, cannot claim to have seen it before.
 */
function useObservations(drawId: string, fresh: boolean, headDeadline: number | null): PhoneSightings | null {
  const [seen, setSeen] = useState<PhoneSightings | null>(null);
  useEffect(() => {
    const next = readSeen(drawId);
    const now = Date.now();
    if (next.receiptReceivedAt === null && fresh) next.receiptReceivedAt = now;
    // Read the clock here, when the head is in hand: a poll that left before the deadline may return after it.
    if (next.headReceivedAt === null && headDeadline !== null && now < headDeadline && next.receiptReceivedAt !== null)
      next.headReceivedAt = now;
    writeSeen(drawId, next);
    setSeen(next);
  }, [drawId, fresh, headDeadline]);
  return seen;
}

type PublicLog = BeaconLog | { unavailable: string };
/** The page's one read of each draw's public log (the reveal's badge and the checks under the cards share it). */
const logReads = new Map<string, Promise<PublicLog>>();

/** The pack's public draw log through the draw's head, read once; a failed read is tried again by the next caller. */
function readPublicLog(gachaId: string, drawId: string): Promise<PublicLog> {
  const known = logReads.get(drawId);
  if (known) return known;
  const page = async (after: number) => {
    const response = await fetch(`/api/v1/gachas/${gachaId}/draw-log?after=${after}&limit=${BEACON_LOG_MAX_PAGE}`, {
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
  // Four pages at a time: a long log arrives in a quarter of the round trips.
  const read: Promise<PublicLog> = readBeaconLog(page, { until: drawId, ahead: 4 }).then(
    (parsed) => (parsed.ok ? parsed.log : { unavailable: parsed.errors.join('／') }),
    () => ({ unavailable: '通信できませんでした' }),
  );
  logReads.set(drawId, read);
  void read.then((log) => 'unavailable' in log && logReads.delete(drawId));
  return read;
}

/**
 * The settled draw's checks in this browser: at once what the proof allows, then the lots recomputed from the
 * public log when it arrives. Null until the page knows what this phone saw. `running` while the log loads.
 */
function useSettledChecks(
  beacon: BeaconDrawView,
  fresh: boolean,
  wonTiers: string[],
  alsoTrust: TrustedChainView[],
): { checks: BeaconDrawCheck[] | null; running: boolean } {
  const seen = useObservations(beacon.receipt.drawId, fresh, null);
  const { gachaId, drawId } = beacon.receipt;
  const [log, setLog] = useState<PublicLog | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void readPublicLog(gachaId, drawId).then((read) => live && setLog(read));
    return () => {
      live = false;
    };
  }, [gachaId, drawId]);
  const won = wonTiers.join('\n');
  // Computed in the browser after the page is shown (never on the server: the shop must not answer for it).
  const [checks, setChecks] = useState<BeaconDrawCheck[] | null>(null);
  useEffect(() => {
    if (seen) setChecks(checkBeaconDraw(beacon, seen, won ? won.split('\n') : [], { alsoTrust, log }));
  }, [beacon, seen, won, alsoTrust, log]);
  return { checks, running: checks === null || log === undefined };
}

const STATE_MARK = { ok: '✓', failed: '✗', unchecked: '–' } as const;
const STATE_STYLE = {
  ok: 'bg-emerald-400 text-emerald-950',
  failed: 'bg-red-500 text-white',
  unchecked: 'bg-white/20 text-white',
} as const;

function CheckList({ checks }: { checks: BeaconDrawCheck[] }) {
  return (
    <ul className="flex flex-col gap-2">
      {checks.map((check) => (
        <li key={check.name} className="flex gap-2" data-testid={`beacon-check-${check.name}`} data-state={check.state}>
          <span
            className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-sm font-black ${STATE_STYLE[check.state]}`}
            aria-label={check.state === 'ok' ? '確認できました' : check.state === 'failed' ? '失敗' : '未確認'}
          >
            {STATE_MARK[check.state]}
          </span>
          <span className="flex min-w-0 flex-col">
            <span className="text-sm font-bold">{check.label}</span>
            <span className="text-xs break-words text-white/80">{check.detail}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

const WHY =
  'このスマホが自分で計算しています。ショップを信用しなくても、誰にも（ショップにも）結果を事前に知ったり選んだりできなかったことを確かめられます。';
const FAILED_NOTE =
  '確認に失敗した項目があります。この画面のスクリーンショットを添えて、お問い合わせからご連絡ください。';

/** The checks while the draw waits: every line visible, each turning ✓ as it becomes possible. */
export function BeaconChecks({ checks, title }: { checks: BeaconDrawCheck[]; title: string }) {
  const failed = checks.some((c) => c.state === 'failed');
  return (
    <section
      aria-labelledby="beacon-checks-title"
      className="flex flex-col gap-2 rounded-2xl bg-white/10 p-4 text-left"
      data-testid="beacon-checks"
    >
      <h2 id="beacon-checks-title" className="text-base font-black">
        {title}
      </h2>
      <p className="text-xs text-white/80">{WHY}</p>
      <CheckList checks={checks} />
      {failed && (
        <p className="rounded-xl bg-red-500/20 p-2 text-xs font-bold" role="alert">
          {FAILED_NOTE}
        </p>
      )}
    </section>
  );
}

/**
 * The settled draw's checks, folded to one line when all pass (the cards stay the page's first business);
 * open, with what failed, when any check fails.
 */
function SettledChecks({ checks, running }: { checks: BeaconDrawCheck[]; running: boolean }) {
  const failed = checks.some((c) => c.state === 'failed');
  const ok = checks.filter((c) => c.state === 'ok').length;
  return (
    <details
      open={failed}
      className="rounded-2xl bg-white/10 p-4 text-left"
      data-testid="beacon-checks"
      data-verdict={failed ? 'failed' : running ? 'running' : 'ok'}
    >
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-black">
        <span
          className={`flex size-6 shrink-0 items-center justify-center rounded-full ${failed ? STATE_STYLE.failed : running ? STATE_STYLE.unchecked : STATE_STYLE.ok}`}
          aria-hidden="true"
        >
          {failed ? STATE_MARK.failed : running ? '…' : STATE_MARK.ok}
        </span>
        {failed
          ? '公正性の確認に失敗した項目があります'
          : running
            ? `公正性をこのスマホで確認しています…（${ok}/${checks.length}項目）`
            : `公正性をこのスマホで確認しました（${ok}/${checks.length}項目）`}
      </summary>
      <p className="my-2 text-xs text-white/80">{WHY}</p>
      <CheckList checks={checks} />
      {failed && (
        <p className="mt-2 rounded-xl bg-red-500/20 p-2 text-xs font-bold" role="alert">
          {FAILED_NOTE}
        </p>
      )}
    </details>
  );
}

/** A settled draw, the tiers the page shows for it (lot k = the k-th smallest slot) and what the page trusts. */
interface SettledDrawProps {
  beacon: BeaconDrawView;
  wonTiers: string[];
  fresh: boolean;
  alsoTrust: TrustedChainView[];
}

/** The settled draw's checks (shown under the result). */
export function BeaconProofPanel({ beacon, wonTiers, fresh, alsoTrust }: SettledDrawProps) {
  const { checks, running } = useSettledChecks(beacon, fresh, wonTiers, alsoTrust);
  if (!checks)
    return (
      <p className="rounded-2xl bg-white/10 p-4 text-sm" role="status" data-testid="beacon-checks-running">
        公正性をこのスマホで確認しています…
      </p>
    );
  return <SettledChecks checks={checks} running={running} />;
}

/**
 * The verdict on the reveal while it plays: the phone checks the draw from the moment the round settles, so the
 * member sees ✓ before the cards have turned. Only the verdict: the result stays the reveal's.
 */
function RevealVerdict({ beacon, wonTiers, fresh, alsoTrust }: SettledDrawProps) {
  const { checks, running } = useSettledChecks(beacon, fresh, wonTiers, alsoTrust);
  const failed = checks?.some((c) => c.state === 'failed') ?? false;
  const ok = checks?.filter((c) => c.state === 'ok').length ?? 0;
  const state = failed ? 'failed' : running ? 'running' : 'ok';
  return (
    <p
      role="status"
      data-testid="reveal-beacon-verdict"
      data-state={state}
      className={`inline-flex min-h-11 items-center gap-1.5 rounded-full border px-3 text-xs font-bold backdrop-blur-sm ${failed ? 'border-red-300 bg-red-600/80 text-white' : 'border-white/50 bg-black/40 text-white'}`}
    >
      <span
        aria-hidden="true"
        className={`flex size-5 shrink-0 items-center justify-center rounded-full ${failed ? STATE_STYLE.failed : running ? `${STATE_STYLE.unchecked} animate-pulse` : STATE_STYLE.ok}`}
      >
        {failed ? STATE_MARK.failed : running ? '' : STATE_MARK.ok}
      </span>
      {failed
        ? '公正性の確認に失敗（結果のあとに詳細）'
        : running
          ? '公正性をこのスマホで確認中…'
          : `このスマホで公正性を確認（${ok}/${checks!.length}）`}
    </p>
  );
}

/**
 * The 抽選中 screen: counts down to the round, polls the draw until it is settled, then calls `onSettled` (the
 * page reloads its data and plays the reveal). Coins and lots are already the member's: leaving is safe.
 */
export function BeaconWaiting({
  beacon: initial,
  resultApi,
  fresh,
  onSettled,
  alsoTrust,
}: {
  beacon: BeaconDrawView;
  /** The draw's JSON (GET /api/v1/gachas/{gachaId}/draws/{drawId}). */
  resultApi: string;
  fresh: boolean;
  onSettled: () => void;
  alsoTrust: TrustedChainView[];
}) {
  const [beacon, setBeacon] = useState(initial);
  const [now, setNow] = useState(() => Date.now());
  const settledRef = useRef(false);
  const settleRound = beacon.head?.settleRound ?? beacon.receipt.round;
  const roundTime = (beacon.terms.beacon.genesisTime + (settleRound - 1) * beacon.terms.beacon.period) * 1000;
  // The head counts as seen in time only while its round's randomness does not exist yet.
  const seen = useObservations(beacon.receipt.drawId, fresh, beacon.head !== null ? roundTime : null);
  useEffect(() => {
    let stopped = false;
    const tick = async () => {
      setNow(Date.now());
      try {
        const response = await fetch(resultApi, { headers: { accept: 'application/json' } });
        if (response.ok) {
          const body = (await response.json()) as { beacon: BeaconDrawView | null };
          if (body.beacon && !stopped) {
            setBeacon(body.beacon);
            if (body.beacon.settled && !settledRef.current) {
              settledRef.current = true;
              onSettled();
              return;
            }
          }
        }
      } catch {
        // offline for a moment: the next tick asks again
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    let timer = setTimeout(tick, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [resultApi, onSettled]);
  const [checks, setChecks] = useState<BeaconDrawCheck[]>([]);
  useEffect(() => {
    if (seen) setChecks(checkBeaconDraw(beacon, seen, [], { alsoTrust }));
  }, [beacon, seen, alsoTrust]);
  const accepted = Date.parse(beacon.receipt.acceptedAt);
  const span = Math.max(1, roundTime - accepted);
  const progress = Math.min(1, Math.max(0, (now - accepted) / span));
  const late = now > roundTime + LATE_AFTER_MS;
  const seconds = Math.max(0, Math.ceil((roundTime - now) / 1000));
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-slate-950 px-4 py-8 text-center text-white">
      <p className="text-sm font-bold text-white/80">ビーコン抽選</p>
      <h1 className="text-3xl font-black" data-testid="beacon-waiting">
        抽選中…
      </h1>
      <p className="text-sm" aria-live="polite">
        {late
          ? '乱数の公開が遅れています。結果が確定したら、このページとメールボックスでお知らせします。'
          : seconds > 0
            ? `ラウンド ${settleRound.toLocaleString('ja-JP')} の乱数が公開されるまで あと${seconds}秒`
            : `ラウンド ${settleRound.toLocaleString('ja-JP')} の乱数で結果を確定しています…`}
      </p>
      <div
        className="h-3 w-full max-w-sm overflow-hidden rounded-full bg-white/15"
        role="progressbar"
        aria-label="乱数の公開まで"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(progress * 100)}
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-500"
          style={{ width: `${progress * 100}%` }}
        />
      </div>
      <p className="max-w-sm text-xs text-white/80">
        コインと口はもう確保されています。このページを閉じても、結果は獲得商品とメールボックスに届きます。
      </p>
      <div className="w-full max-w-md">
        <BeaconChecks checks={checks} title="このスマホでの確認" />
      </div>
    </div>
  );
}

/** The tiers a beacon draw won, by slot (lot k is the k-th smallest slot), without its extra prizes. */
const slotTiers = (items: { position: number | null; tierId: string }[]) =>
  items
    .filter((p) => p.position !== null)
    .sort((a, b) => a.position! - b.position!)
    .map((p) => p.tierId);

/** The result page of a beacon draw still waiting for its round; once settled, the same page with its reveal. */
export function WaitForRound({
  beacon,
  resultHref,
  fresh,
  alsoTrust,
}: {
  beacon: BeaconDrawView;
  resultHref: string;
  fresh: boolean;
  alsoTrust: TrustedChainView[];
}) {
  const navigate = useNavigate();
  const onSettled = useCallback(
    () => navigate(`${resultHref}?reveal=1`, { replace: true, preventScrollReset: true }),
    [navigate, resultHref],
  );
  const { gachaId, drawId } = beacon.receipt;
  return (
    <BeaconWaiting
      beacon={beacon}
      resultApi={`/api/v1/gachas/${gachaId}/draws/${drawId}`}
      fresh={fresh}
      onSettled={onSettled}
      alsoTrust={alsoTrust}
    />
  );
}

/** What the result page gives a settled draw's parts: its proof and its prizes as the page lists them. */
interface SettledDrawPart {
  beacon: BeaconDrawView;
  fresh: boolean;
  items: { position: number | null; tierId: string }[];
  alsoTrust: TrustedChainView[];
}

/** A settled beacon draw's verdict on its reveal (the same checks as under the cards, started with the reveal). */
export function RevealCheck({ items, ...rest }: SettledDrawPart) {
  return <RevealVerdict {...rest} wonTiers={slotTiers(items)} />;
}

/** A settled beacon draw's checks, under its cards. */
export function ProofOfDraw({ items, ...rest }: SettledDrawPart) {
  return <BeaconProofPanel {...rest} wonTiers={slotTiers(items)} />;
}
