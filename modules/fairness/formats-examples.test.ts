// docs/formats/reveal-formats.md held to the code: every example file gets the verdict expected.json states (from
// both verifiers), every vector is recomputed, and each of the document's "points a verifier must not guess" is
// pinned here, so the specification cannot drift from what verify-pack and the pack page do.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
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
import { fixture, kiribanReveal } from './testing';

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
  stats?: RevealStats;
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
  it('lists every example file once, and the document names each', () => {
    const listed = expected.examples.map((e) => path.basename(e.file)).sort();
    const onDisk = fs
      .readdirSync(examples)
      .filter((f) => f.endsWith('.json') && f !== 'expected.json' && f !== 'vectors.json');
    expect(listed.filter((f) => onDisk.includes(f))).toEqual([...onDisk].sort());
    for (const example of expected.examples) expect(spec).toContain(path.basename(example.file));
  });

  for (const example of expected.examples) {
    it(`${path.basename(example.file)}: ${example.description}`, async () => {
      const json = readJson(example.file);
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
