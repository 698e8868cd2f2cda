// Unit tests for the resizer URL and srcset builder: exact strings, since browsers parse them literally.
import { describe, expect, it } from 'vitest';
import { buildSrcSet, IMAGE_DENSITIES, IMAGE_WIDTHS, imageUrl, isImageWidth } from './image-srcset';

const P = '/_img?src=%2Fdemo%2Fpacks%2Fp1.svg';

describe('constants', () => {
  it('lists the allowed widths and densities', () => {
    expect(IMAGE_WIDTHS).toEqual([640, 828, 1200, 2048, 3840]);
    expect(IMAGE_DENSITIES).toEqual([1, 2, 3]);
    expect(isImageWidth(828)).toBe(true);
    expect(isImageWidth(800)).toBe(false);
  });
});

describe('imageUrl', () => {
  it('encodes the source and defaults quality to 75', () => {
    expect(imageUrl('/demo/packs/p1.svg', 828)).toBe(`${P}&w=828&q=75`);
    expect(imageUrl('/demo/packs/p1.svg', 640, 50)).toBe(`${P}&w=640&q=50`);
  });

  it('escapes characters that would break the query string', () => {
    expect(imageUrl('/a b&c=d?.png', 640)).toBe('/_img?src=%2Fa%20b%26c%3Dd%3F.png&w=640&q=75');
    expect(imageUrl('/デモ.png', 640)).toBe('/_img?src=%2F%E3%83%87%E3%83%A2.png&w=640&q=75');
  });
});

describe('buildSrcSet', () => {
  it('uses width descriptors over every width when sizes is given', () => {
    expect(buildSrcSet('/demo/packs/p1.svg', { sizes: '(min-width: 768px) 50vw, 100vw' })).toEqual({
      src: `${P}&w=3840&q=75`,
      srcSet:
        `${P}&w=640&q=75 640w, ${P}&w=828&q=75 828w, ${P}&w=1200&q=75 1200w, ` +
        `${P}&w=2048&q=75 2048w, ${P}&w=3840&q=75 3840w`,
      sizes: '(min-width: 768px) 50vw, 100vw',
    });
  });

  it('prefers sizes over width when both are given', () => {
    const r = buildSrcSet('/demo/packs/p1.svg', { width: 300, sizes: '300px', quality: 60 });
    expect(r.sizes).toBe('300px');
    expect(r.src).toBe(`${P}&w=3840&q=60`);
    expect(r.srcSet.split(', ')).toHaveLength(5);
    expect(r.srcSet.startsWith(`${P}&w=640&q=60 640w`)).toBe(true);
  });

  it('uses density descriptors for a fixed width, dropping densities that repeat a file', () => {
    // 300 → 640 (1x); 600 → 640 again (2x dropped); 900 → 1200 (3x).
    expect(buildSrcSet('/demo/packs/p1.svg', { width: 300 })).toEqual({
      src: `${P}&w=640&q=75`,
      srcSet: `${P}&w=640&q=75 1x, ${P}&w=1200&q=75 3x`,
    });
  });

  it('keeps all three densities when each maps to a different width', () => {
    // 400 → 640, 800 → 828, 1200 → 1200.
    expect(buildSrcSet('/demo/packs/p1.svg', { width: 400, quality: 80 })).toEqual({
      src: `${P}&w=640&q=80`,
      srcSet: `${P}&w=640&q=80 1x, ${P}&w=828&q=80 2x, ${P}&w=1200&q=80 3x`,
    });
  });

  it('clamps to the largest width when a density needs more than exists', () => {
    // 1500 → 2048; 3000 → 3840; 4500 → 3840 (dropped).
    expect(buildSrcSet('/demo/packs/p1.svg', { width: 1500 })).toEqual({
      src: `${P}&w=2048&q=75`,
      srcSet: `${P}&w=2048&q=75 1x, ${P}&w=3840&q=75 2x`,
    });
    // 4000 is wider than every width: one 3840 entry.
    expect(buildSrcSet('/demo/packs/p1.svg', { width: 4000 })).toEqual({
      src: `${P}&w=3840&q=75`,
      srcSet: `${P}&w=3840&q=75 1x`,
    });
  });

  it('treats an image with neither width nor sizes as full-viewport', () => {
    const r = buildSrcSet('/demo/packs/p1.svg');
    expect(r.sizes).toBe('100vw');
    expect(r.src).toBe(`${P}&w=3840&q=75`);
    expect(r.srcSet.endsWith(`${P}&w=3840&q=75 3840w`)).toBe(true);
  });
});
