// Writes the demo shop's original, text-free SVG art to public/demo/ (deterministic: same bytes every run),
// and with --proofs the photos of the demo's graded cards in their cases (public/demo/proofs/, JPEG: their
// bytes are what the demo's published hashes name, so they are written once and committed, not every run).
// Each demo card name has one picture (db/demo/cards.ts), so a card looks the same in every pack; the
// pictures carry no text, since the server rasterises them and may have no Japanese font.
//
// The pictures are drawn in scripts/demo-art/: svg.ts (seeded randomness, SVG helpers), palettes.ts,
// mini-card.ts, packs.ts, creatures.ts, cards.ts, banners.ts and genres.ts.
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_CARDS } from '../db/demo/cards';
import { DEMO_CERTIFIED_TIERS } from '../db/demo/proofs';
import { demoProofPhoto } from './demo-art/proofs';
import { bannerArt } from './demo-art/banners';
import { cardArt } from './demo-art/cards';
import { GENRES, genreIcon } from './demo-art/genres';
import { packArt } from './demo-art/packs';

export { mulberry32 } from './demo-art/svg';

// ---------- output ----------

const pad = (i: number): string => String(i).padStart(2, '0');

/**
 * Every demo art file as [relative path, SVG text]; pure, so tests can check it without writing.
 * @example demoArtFiles().find(([p]) => p === 'packs/pack-01.svg')
 */
export function demoArtFiles(): Array<[string, string]> {
  const files: Array<[string, string]> = [];
  for (let i = 0; i < 12; i++) files.push([`packs/pack-${pad(i + 1)}.svg`, packArt(i)]);
  for (const card of DEMO_CARDS) files.push([`cards/card-${pad(card.number)}.svg`, cardArt(card)]);
  for (let i = 0; i < 4; i++) files.push([`banners/banner-${pad(i + 1)}.svg`, bannerArt(i)]);
  for (const id of GENRES) files.push([`genres/${id}.svg`, genreIcon(id)]);
  return files;
}

async function main(): Promise<void> {
  const outDir = path.resolve(import.meta.dirname, '..', 'public', 'demo');
  let total = 0;
  for (const [relative, content] of demoArtFiles()) {
    const target = path.join(outDir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    const size = Buffer.byteLength(content);
    total += size;
    if (size > 12 * 1024) console.warn(`warning: ${relative} is ${size} bytes (over 12 KB)`);
  }
  console.log(
    `wrote ${demoArtFiles().length} files (${Math.round(total / 1024)} KB) to ${path.relative(process.cwd(), outDir) || outDir}`,
  );
  if (!process.argv.includes('--proofs')) return;
  for (const proof of DEMO_CERTIFIED_TIERS) {
    const target = path.join(outDir, 'proofs', proof.file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, await demoProofPhoto(proof));
    console.log(`wrote proofs/${proof.file}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
