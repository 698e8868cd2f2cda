// docs/formats/reveal-formats.md held to the code: every example file gets the verdict expected.json states (from
// both verifiers), every vector is recomputed, and each of the document's "points a verifier must not guess" is
// pinned here, so the specification cannot drift from what verify-pack and the pack page do. Part B's examples
// (beacon packs) and the 天井賞's (v4) are testing.ts's sales byte for byte: WRITE_FORMAT_EXAMPLES=1 rewrites them
// (then run prettier on docs/formats).
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import {
  CHECK_NAMES,
  anonymiseMember,
  canonicalPackDocument,
  computeCommitment,
  parsePackReveal,
  shuffleLots,
  verifyReveal,
  type CommitmentInput,
  type PackReveal,
  type RevealStats,
} from './commitment';
import { parseIsoTime } from './format';
import { computeCommitmentInBrowser, shuffleLotsInBrowser, verifyRevealInBrowser } from './web-crypto';
import {
  beaconExampleFiles,
  beaconVectors,
  ceilingExampleFiles,
  exampleChain,
  fixture,
  kiribanReveal,
} from './testing';
import {
  BEACON_CHECK_NAMES,
  beaconCommitment,
  beaconCommitmentDocument,
  headHash,
  isBeaconLogJson,
  parseBeaconLog,
  receiptDocument,
  receiptHash,
  receiptPublicKey,
  selectIndex,
  settleDraws,
  settlementRound,
  signReceipt,
  verifyBeaconLog,
  verifyReceiptSignature,
  type BeaconLogStats,
  type TrustedChain,
} from './index';
import { roundMessage, verifyBeacon } from '#modules/beacon';

const formats = path.resolve(import.meta.dirname, '..', '..', 'docs', 'formats');
const examples = path.join(formats, 'examples');
const spec = fs.readFileSync(path.join(formats, 'reveal-formats.md'), 'utf8');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(examples, file), 'utf8'));

interface Example {
  file: string;
  description: string;
  exit: 0 | 1 | 2;
  ok: boolean;
  failedChecks: string[];
  stats?: RevealStats | BeaconLogStats;
  /** Part B: verified with this chain trusted (verify-pack --trust-chain). */
  trustChain?: string;
}
/** The drand stand-in's chain info (its /info), trusted by part B's examples: not an example itself. */
const CHAIN_FILE = 'beacon-standin-chain.json';
const BEACON_FILE = /^(beacon-|tampered-beacon-|refused-beacon-)/;
if (process.env.WRITE_FORMAT_EXAMPLES === '1') {
  writeBeaconExamples();
  writeCeilingExamples();
}
const expected: { examples: Example[] } = readJson('expected.json');
const vectors: {
  commitments: { name: string; input: CommitmentInput; document: string; commitment: string }[];
  shuffleStream: { seed: string; block: number; hmacHex: string; uint32: number[] }[];
  shuffles: { seed: string; input: string[]; output: string[] }[];
  pseudonyms: { memberId: string; revealSalt: string; member: string }[];
} = readJson('vectors.json');

const failed = (reveal: unknown) =>
  verifyReveal(reveal as PackReveal)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);

describe('docs/formats/examples', () => {
  it('lists every example file, and the document names each', () => {
    const listed = [...new Set(expected.examples.map((e) => path.basename(e.file)))].sort();
    const onDisk = fs
      .readdirSync(examples)
      .filter((f) => f.endsWith('.json') && !['expected.json', 'vectors.json', CHAIN_FILE].includes(f));
    expect(listed.filter((f) => onDisk.includes(f))).toEqual([...onDisk].sort());
    for (const example of expected.examples) expect(spec).toContain(path.basename(example.file));
  });

  for (const example of expected.examples) {
    it(`${path.basename(example.file)}: ${example.description}`, async () => {
      const json = readJson(example.file);
      if (isBeaconLogJson(json)) {
        const options = example.trustChain ? { trustedChains: [readJson(example.trustChain) as TrustedChain] } : {};
        const result = verifyBeaconLog(json, options);
        expect(!parseBeaconLog(json).ok ? 2 : result.ok ? 0 : 1).toBe(example.exit);
        expect({
          ok: result.ok,
          failedChecks: result.checks.filter((c) => !c.ok).map((c) => c.name),
          stats: result.stats,
        }).toEqual({ ok: example.ok, failedChecks: example.failedChecks, stats: example.stats });
        return;
      }
      const exit = !parsePackReveal(json).ok ? 2 : verifyReveal(json).ok ? 0 : 1;
      expect(exit).toBe(example.exit);
      const node = verifyReveal(json);
      expect({ ok: node.ok, failedChecks: failed(json), stats: node.stats }).toEqual({
        ok: example.ok,
        failedChecks: example.failedChecks,
        stats: example.stats,
      });
      expect(await verifyRevealInBrowser(readJson(example.file))).toEqual(node);
    });
  }
});

/** Rewrites the 天井賞's example files and their entries in expected.json (in place, or after the last v3 one). */
function writeCeilingExamples() {
  const write = (file: string, value: unknown) =>
    fs.writeFileSync(path.join(examples, file), `${JSON.stringify(value, null, 2)}\n`);
  const current: { about: string; examples: Example[] } = readJson('expected.json');
  const list = [...current.examples];
  const anchors = { 0: 'v3-extras.json', 1: 'tampered-pitari-moved.json' };
  for (const example of ceilingExampleFiles()) {
    write(example.file, example.json);
    const result = verifyReveal(example.json);
    const entry: Example = {
      file: example.file,
      description: example.description,
      exit: example.exit,
      ok: result.ok,
      failedChecks: result.checks.filter((c) => !c.ok).map((c) => c.name),
      stats: result.stats,
    };
    const at = list.findIndex((e) => e.file === example.file);
    if (at >= 0) list[at] = entry;
    else list.splice(list.findIndex((e) => e.file === anchors[example.exit]) + 1, 0, entry);
  }
  write('expected.json', { ...current, examples: list });
}

describe('the 天井賞 examples are the test kit’s sale', () => {
  it('holds every file to ceilingReveal byte for byte, with the verdict expected.json states', () => {
    for (const example of ceilingExampleFiles()) {
      expect(readJson(example.file), example.file).toEqual(JSON.parse(JSON.stringify(example.json)));
      expect(expected.examples.find((e) => e.file === example.file)).toMatchObject({ exit: example.exit });
    }
  });
});

describe('docs/formats/examples/vectors.json', () => {
  it('commitment documents and hashes, in node and over Web Crypto, quoted in the document', async () => {
    for (const vector of vectors.commitments) {
      expect(canonicalPackDocument(vector.input)).toBe(vector.document);
      expect(computeCommitment(vector.input)).toBe(vector.commitment);
      expect(await computeCommitmentInBrowser(vector.input)).toBe(vector.commitment);
      expect(spec).toContain(vector.commitment);
    }
  });

  it('the shuffle stream: HMAC-SHA256(seed, "oripa-shuffle-v1" ‖ uint32be(k)) read as big-endian uint32', () => {
    for (const vector of vectors.shuffleStream) {
      const message = Buffer.concat([Buffer.from('oripa-shuffle-v1', 'ascii'), Buffer.alloc(4)]);
      message.writeUInt32BE(vector.block, 16);
      const digest = createHmac('sha256', Buffer.from(vector.seed, 'hex')).update(message).digest();
      expect(digest.toString('hex')).toBe(vector.hmacHex);
      expect(Array.from({ length: 8 }, (_, i) => digest.readUInt32BE(i * 4))).toEqual(vector.uint32);
    }
    expect(spec).toContain(vectors.shuffleStream[0].hmacHex);
  });

  it('shuffles and pseudonyms', async () => {
    for (const vector of vectors.shuffles) {
      expect(shuffleLots(vector.seed, vector.input)).toEqual(vector.output);
      expect(await shuffleLotsInBrowser(vector.seed, vector.input)).toEqual(vector.output);
      expect(spec).toContain(vector.output.join(vector.input[0].length > 1 || vector.input.length > 10 ? '' : ','));
    }
    for (const vector of vectors.pseudonyms) {
      expect(anonymiseMember(vector.memberId, vector.revealSalt)).toBe(vector.member);
      expect(spec).toContain(vector.member);
    }
  });
});

describe('points a verifier must not guess (reveal-formats.md)', () => {
  it('the label picks the commitment version, and the content must agree with it', () => {
    // /2 without any キリ番 tier is refused as not a reveal file (it used to pass on a v1 commitment).
    const v2Empty = fixture();
    v2Empty.format = 'oripa-pack-reveal/2';
    v2Empty.draws.forEach((d) => (d.kiriban = []));
    expect(failed(v2Empty)).toEqual([CHECK_NAMES.shape]);
    v2Empty.tiers[0].kiribanAt = [];
    expect(failed(v2Empty)).toEqual([CHECK_NAMES.shape]);
    // v2 fields in a /1 file, even empty ones, are refused the same way.
    const v1Empty = fixture();
    v1Empty.tiers[0].kiribanAt = [];
    expect(failed(v1Empty)).toEqual([CHECK_NAMES.shape]);
    // In a /2 file, `kiribanAt: []` on a tier is the same as no kiribanAt (a 0 in its v2 tier record).
    const v2 = kiribanReveal();
    v2.tiers[0].kiribanAt = [];
    expect(verifyReveal(v2).ok).toBe(true);
  });

  it('accepts exactly the documented ISO 8601 forms, compared to the millisecond, ends included', () => {
    for (const ok of [
      '2026-11-22T10:00Z',
      '2026-11-22T10:00:00Z',
      '2026-11-22T10:00:00.5Z',
      '2026-11-22T10:00:00.123456789Z',
      '2026-11-22T19:00:00+09:00',
      '2026-11-22T10:00:00-00:00',
      '2028-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
    ])
      expect(parseIsoTime(ok), ok).not.toBeNaN();
    for (const refused of [
      '2026-11-31T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:60:00Z',
      '2026-11-22T10:00:60Z',
      '2026-11-22T10:00:00+24:00',
      '2026-11-22T10:00:00+0900',
      '2026-11-22T10:00:00',
      '2026-11-22 10:00:00Z',
      '2026-11-22t10:00:00z',
      '2026-11-22T10:00:00.Z',
      '2026-11-22T10:00:00.1234567890Z',
      '20261122T100000Z',
      '+002026-11-22T10:00:00Z',
    ])
      expect(parseIsoTime(refused), refused).toBeNaN();
    expect(parseIsoTime('2026-11-22T19:00:00.5+09:00')).toBe(Date.UTC(2026, 10, 22, 10, 0, 0, 500));
    expect(parseIsoTime('2026-11-22T10:00:00.1239Z')).toBe(parseIsoTime('2026-11-22T10:00:00.123Z'));
    expect(parseIsoTime('0001-01-01T00:00:00Z')).toBe(Date.parse('0001-01-01T00:00:00Z'));
    // Between includes its ends: a draw at committedAt or at revealedAt passes.
    const ends = fixture();
    ends.draws[0].at = ends.committedAt;
    ends.draws[6].at = ends.revealedAt;
    expect(verifyReveal(ends).ok).toBe(true);
    // A time in another offset is the same instant.
    const offset = fixture();
    offset.committedAt = '2026-11-22T18:00:00+09:00';
    expect(verifyReveal(offset).ok).toBe(true);
    const early = fixture();
    early.draws[0].at = '2026-11-22T08:59:59.999Z';
    expect(failed(early)).toEqual([CHECK_NAMES.drawLog]);
  });

  it('counts a draw out of order when, after it, some position below its highest is still undrawn', () => {
    // The fixture: draw 2 took 3…12 while 2 was undrawn (out of order); draw 3 then took 2 (in order).
    expect(verifyReveal(fixture()).stats?.drawsOutOfOrder).toBe(1);
    const reversed = fixture();
    reversed.draws[4].positions = [18, 17, 16, 15, 14];
    expect(verifyReveal(reversed).stats?.drawsOutOfOrder).toBe(1);
  });

  it('counts a repeated position at each entry, and refuses it, even within one draw', () => {
    const twice = fixture();
    twice.draws[0].positions = [1, 1];
    expect(failed(twice)).toEqual([CHECK_NAMES.drawLog, CHECK_NAMES.totals]);
    expect(verifyReveal(twice).checks.find((c) => c.name === CHECK_NAMES.totals)?.detail).toContain('引かれた口 21');
  });

  it('accepts a draw with no positions, which holds no lot and can win nothing', () => {
    const empty = fixture();
    empty.draws.push({ ...empty.draws[6], drawNo: 8, positions: [], lastOne: false });
    expect(verifyReveal(empty).ok).toBe(true);
    const emptyWinner = fixture();
    emptyWinner.draws[6].lastOne = false;
    emptyWinner.draws.push({ ...emptyWinner.draws[6], drawNo: 8, positions: [], lastOne: true });
    expect(failed(emptyWinner)).toEqual([CHECK_NAMES.lastOne]);
  });

  it('wants lastOne false on every draw of a pack without a ラストワン賞', () => {
    const noTier = readJson('v1-no-last-one.json') as PackReveal;
    noTier.draws[1].lastOne = true;
    expect(failed(noTier)).toEqual([CHECK_NAMES.lastOne]);
  });

  it('takes the array order as the log order, with drawNo equal to 1 + the index', () => {
    const renumbered = fixture();
    renumbered.draws.forEach((d) => (d.drawNo += 1));
    expect(failed(renumbered)).toEqual([CHECK_NAMES.drawLog]);
  });

  it('wants pseudonyms, seed and commitment in lower case', () => {
    const member = fixture();
    member.draws[0].member = member.draws[0].member.toUpperCase();
    expect(failed(member)).toEqual([CHECK_NAMES.drawLog]);
    const seed = fixture();
    seed.seed = seed.seed.toUpperCase();
    expect(failed(seed)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order]);
    const commitment = fixture();
    commitment.commitment = commitment.commitment.toUpperCase();
    expect(failed(commitment)).toEqual([CHECK_NAMES.commitment]);
  });
});

// ── Part B: beacon packs ─────────────────────────────────────────────────────────────────────────────

/** Rewrites part B's example files, their entries in expected.json and vectors.json's `beacon` (then run prettier). */
function writeBeaconExamples() {
  const write = (file: string, value: unknown) =>
    fs.writeFileSync(path.join(examples, file), `${JSON.stringify(value, null, 2)}\n`);
  const trusted = [exampleChain().info];
  write(CHAIN_FILE, exampleChain().info);
  const entries: Example[] = [];
  for (const example of beaconExampleFiles()) {
    write(example.file, example.json);
    const result = verifyBeaconLog(example.json, example.trustChain ? { trustedChains: trusted } : {});
    entries.push({
      file: example.file,
      description: example.description,
      exit: example.exit,
      ok: result.ok,
      failedChecks: result.checks.filter((c) => !c.ok).map((c) => c.name),
      ...(result.stats ? { stats: result.stats } : {}),
      ...(example.trustChain ? { trustChain: CHAIN_FILE } : {}),
    });
  }
  const current: { about: string; examples: Example[] } = readJson('expected.json');
  write('expected.json', {
    ...current,
    examples: [...current.examples.filter((e) => !BEACON_FILE.test(path.basename(e.file))), ...entries],
  });
  write('vectors.json', { ...readJson('vectors.json'), beacon: beaconVectors() });
}

describe('part B: the beacon examples are the simulated sale', () => {
  const trusted = readJson(CHAIN_FILE) as TrustedChain;

  it('holds the stand-in chain the examples trust, and every file is the simulation byte for byte', () => {
    expect(trusted).toEqual(JSON.parse(JSON.stringify(exampleChain().info)));
    for (const example of beaconExampleFiles()) {
      expect(readJson(example.file), example.file).toEqual(JSON.parse(JSON.stringify(example.json)));
      const entry = expected.examples.find(
        (e) => e.file === example.file && Boolean(e.trustChain) === example.trustChain,
      );
      expect(entry, example.file).toMatchObject({ exit: example.exit, failedChecks: example.failedChecks });
    }
  });

  it('names every check of part B in the document, in report order', () => {
    const names = Object.values(BEACON_CHECK_NAMES);
    for (const name of names) expect(spec).toContain(`**${name}**`);
  });
});

describe('part B: docs/formats/examples/vectors.json `beacon`', () => {
  const vectors = readJson('vectors.json').beacon as ReturnType<typeof beaconVectors>;

  it('are what the code computes now', () => {
    expect(vectors).toEqual(JSON.parse(JSON.stringify(beaconVectors())));
  });

  it('the b1 commitment, the receipt and its Ed25519 signature, the head, quoted in the document', () => {
    const { commitment, receipt, head } = vectors;
    expect(beaconCommitmentDocument(commitment.terms)).toBe(commitment.document);
    expect(beaconCommitment(commitment.terms)).toBe(commitment.commitment);
    expect(receiptDocument(receipt.receipt)).toBe(receipt.document);
    expect(receiptHash(receipt.receipt)).toBe(receipt.hash);
    expect(receiptPublicKey(receipt.secretKey)).toBe(receipt.publicKey);
    expect(signReceipt(receipt.receipt, receipt.secretKey)).toBe(receipt.signature);
    expect(verifyReceiptSignature(receipt.receipt, receipt.signature, receipt.publicKey)).toBe(true);
    expect(headHash(head.prevHead, head.round, head.receiptHashes)).toBe(head.head);
    expect(createHash('sha256').update(head.document).digest('hex')).toBe(head.head);
    for (const value of [commitment.commitment, receipt.hash, receipt.signature, head.head, receipt.publicKey])
      expect(spec).toContain(value);
    expect(spec).toContain(commitment.document.split('\n')[1]);
  });

  it('the settlement rounds, the beacon (BLS) and the selection, byte for byte', () => {
    const { settlementRounds, beacon, selection, settle } = vectors;
    for (const c of settlementRounds.cases)
      expect(settlementRound(settlementRounds.chain, c.round, Date.parse(c.publishedAt)), c.publishedAt).toBe(
        c.settleRound,
      );
    expect(Buffer.from(roundMessage(beacon.round)).toString('hex')).toBe(beacon.roundMessage);
    expect(verifyBeacon(beacon.chain, beacon, beacon.round)).toEqual({
      valid: true,
      round: beacon.round,
      randomness: beacon.randomness,
    });
    expect(createHash('sha256').update(Buffer.from(beacon.signature, 'hex')).digest('hex')).toBe(beacon.randomness);
    for (const v of selection) {
      const message = Buffer.concat([
        Buffer.from(`oripa-beacon-select-v1\u0000${v.gachaId}\u0000${v.drawId}\u0000`, 'utf8'),
        Buffer.alloc(8),
      ]);
      message.writeUInt32BE(v.k, message.length - 8);
      if (v.message) expect(message.toString('hex')).toBe(v.message);
      const digest = createHmac('sha256', Buffer.from(v.randomness, 'hex')).update(message).digest();
      expect(digest.toString('hex')).toBe(v.block0);
      expect(Array.from({ length: 8 }, (_, i) => digest.readUInt32BE(i * 4))).toEqual(v.uint32);
      expect(selectIndex(v.randomness, v.gachaId, v.drawId, v.k, v.m)).toBe(v.index);
      expect(spec).toContain(v.block0);
    }
    // The second vector's first candidate is refused (u ≥ 2³² − 2³² mod m): the index comes from the next one.
    const [, rejected] = selection;
    const limit = 2 ** 32 - (2 ** 32 % rejected!.m);
    expect(rejected!.uint32[0]).toBeGreaterThanOrEqual(limit);
    expect(rejected!.index).toBe(rejected!.uint32.find((u) => u < limit)! % rejected!.m);
    expect(settleDraws(settle.randomness, settle.gachaId, settle.remaining, settle.draws).tiers).toEqual(settle.tiers);
  });
});
