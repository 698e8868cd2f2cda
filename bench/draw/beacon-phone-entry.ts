// The phone's check of one beacon draw, bundled for bench/draw/beacon.ts to time in a throttled Chromium: the same
// readBeaconLog and checkBeaconDraw the result page runs (the log's pages given as the API's JSON texts), with the
// bench's chain trusted as a sandbox shop trusts its stand-in; and the 抽選中 screen's checks that precede it.
import {
  checkBeaconDraw,
  readBeaconLog,
  type BeaconDrawEvidence,
  type PhoneSightings,
} from '#modules/fairness/browser';

/** The bench's chain, trusted as a sandbox shop trusts its stand-in. */
const trustingBench = (evidence: BeaconDrawEvidence) => {
  const chain = evidence.terms.beacon;
  return [
    {
      hash: chain.chainHash,
      schemeID: chain.scheme,
      public_key: chain.publicKey,
      genesis_time: chain.genesisTime,
      period: chain.period,
      label: 'bench',
    },
  ];
};

async function run(
  evidence: BeaconDrawEvidence,
  seen: PhoneSightings,
  won: string[],
  pages: string[],
  pageSize: number,
) {
  const alsoTrust = trustingBench(evidence);
  const started = performance.now();
  // Page k answers after = k × pageSize.
  const parsed = await readBeaconLog(async (after) => JSON.parse(pages[after / pageSize]!), {
    until: evidence.receipt.drawId,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const read = performance.now();
  const checks = checkBeaconDraw(evidence, seen, won, { log: parsed.log, alsoTrust });
  const done = performance.now();
  return {
    ms: done - started,
    readMs: read - started,
    checkMs: done - read,
    ok: checks.every((c) => c.state === 'ok'),
  };
}

/** What the 抽選中 screen checks before the round settles (the page has run it by the time the reveal starts). */
function waiting(evidence: BeaconDrawEvidence, seen: PhoneSightings) {
  checkBeaconDraw({ ...evidence, head: null, path: [], settlement: null }, seen, [], {
    alsoTrust: trustingBench(evidence),
  });
}

(window as unknown as { beaconPhone: { run: typeof run; waiting: typeof waiting } }).beaconPhone = { run, waiting };
