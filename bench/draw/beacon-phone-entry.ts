// The phone's check of one beacon draw, bundled for bench/draw/beacon.ts to time in a throttled Chromium: the same
// checkBeaconDraw the result page runs, with the bench's chain trusted as a sandbox shop trusts its stand-in.
import { checkBeaconDraw, type BeaconDrawEvidence, type PhoneSightings } from '#modules/fairness/browser';

function run(evidence: BeaconDrawEvidence, seen: PhoneSightings, won: string[]) {
  const chain = evidence.terms.beacon;
  const started = performance.now();
  const checks = checkBeaconDraw(evidence, seen, won, {
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
  return { ms, ok: checks.every((c) => c.state === 'ok'), checks: checks.length };
}

(window as unknown as { beaconPhone: { run: typeof run } }).beaconPhone = { run };
