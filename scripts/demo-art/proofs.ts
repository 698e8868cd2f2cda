// The demo's graded cards photographed in their cases (issue 33 item 8): a JPEG per certificate, the card's
// own art in a clear case under a label with its grade and its certificate number, on a desk. Raster files
// (a photo, not art), written once and committed: the demo data hashes their bytes as the shop hashes an
// upload. The numbers start with DEMO, so nobody looking one up at a grading company finds a real card.
import sharp from 'sharp';
import { type DemoCertifiedTier } from '../../db/demo/proofs';
import { cardArt } from './cards';

const WIDTH = 720;
const HEIGHT = 1080;

/** The case and its label around the card's art (ASCII only: the machine that renders may lack Japanese fonts). */
function caseSvg(proof: DemoCertifiedTier): string {
  const bars = Array.from(proof.number)
    .flatMap((ch, i) => {
      const code = ch.charCodeAt(0);
      return [0, 1, 2].map((k) => {
        const x = 400 + (i * 3 + k) * 4.5;
        const w = ((code >> k) & 1) + 1.2;
        return `<rect x="${x}" y="180" width="${w}" height="34" fill="#222"/>`;
      });
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs>
    <linearGradient id="desk" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8a6a4a"/><stop offset="1" stop-color="#5b4330"/></linearGradient>
    <linearGradient id="plastic" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f4f7fb" stop-opacity=".95"/><stop offset=".5" stop-color="#dfe6ee" stop-opacity=".85"/><stop offset="1" stop-color="#f7f9fc" stop-opacity=".95"/></linearGradient>
    <linearGradient id="glare" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset=".5" stop-color="#fff" stop-opacity=".35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>
  </defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#desk)"/>
  <rect x="92" y="62" width="548" height="968" rx="26" fill="#000" opacity=".28"/>
  <rect x="80" y="50" width="548" height="968" rx="26" fill="url(#plastic)" stroke="#c5ced8" stroke-width="4"/>
  <rect x="112" y="82" width="484" height="150" rx="8" fill="#fff" stroke="#c8102e" stroke-width="6"/>
  <text x="132" y="128" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" font-weight="bold" fill="#222">DEMO CARD No.${String(proof.card.number).padStart(3, '0')} ${proof.card.rarity}</text>
  <text x="132" y="170" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" font-weight="bold" fill="#c8102e">GEM MT ${proof.grade}</text>
  <text x="132" y="212" font-family="DejaVu Sans Mono, monospace" font-size="26" fill="#222">${proof.number}</text>
  ${bars}
  <rect x="150" y="268" width="408" height="712" rx="10" fill="#1d2430" opacity=".15"/>
</svg>`;
}

/**
 * The JPEG of one demo proof: the case, the card's art inside it, a glare across the plastic.
 * @example await fs.writeFile('public/demo/proofs/demo-10000001.jpg', await demoProofPhoto(DEMO_CERTIFIED_TIERS[0]))
 */
export async function demoProofPhoto(proof: DemoCertifiedTier): Promise<Buffer> {
  const art = await sharp(Buffer.from(cardArt(proof.card)))
    .resize(392, 548)
    .png()
    .toBuffer();
  const glare = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><polygon points="80,600 628,260 628,420 80,760" fill="#fff" opacity=".12"/></svg>`,
  );
  return sharp(Buffer.from(caseSvg(proof)))
    .composite([
      { input: art, left: 158, top: 350 },
      { input: glare, left: 0, top: 0 },
    ])
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}
