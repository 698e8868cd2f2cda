// The phone's check of one beacon draw, bundled for bench/draw/beacon.ts to time in a throttled Chromium: the same
// readBeaconLog and checkBeaconDraw the result page runs (the log's pages given as the API's JSON texts), with the
// bench's chain trusted as a sandbox shop trusts its stand-in.
import {
  checkBeaconDraw,
  readBeaconLog,
  type BeaconDrawEvidence,
  type PhoneSightings,
} from '#modules/fairness/browser';

async function run(evidence: BeaconDrawEvidence, seen: PhoneSightings, won: string[], pages: string[]) {
  const chain = evidence.terms.beacon;
  const started = performance.now();
  // Page k answers after = 100 k (the bench's pages hold 100 receipts each).
  const parsed = await readBeaconLog(async (after) => JSON.parse(pages[after / 100]!), {
    until: evidence.receipt.drawId,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const checks = checkBeaconDraw(evidence, seen, won, {
    log: parsed.log,
    alsoTrust: [
      {
        hash: chain.chainHash,
        schemeID: chain.scheme,
        public_key: chain.publicKey,
        genesis_time: chain.genesisTime,
        period: chain.period,
        label: 'bench',
      },
    ],
  });
  const ms = performance.now() - started;
  return { ms, ok: checks.every((c) => c.state === 'ok') };
}

(window as unknown as { beaconPhone: { run: typeof run } }).beaconPhone = { run };
