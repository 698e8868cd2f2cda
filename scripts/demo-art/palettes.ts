// The demo art's palettes: one mood per pack, one element per card.
import { type Stop } from './svg';

interface Scheme {
  bg: readonly [string, string, string];
  accent: string;
  accent2: string;
  light: string;
}

/** One mood per pack (flame, ocean, thunder, mystic, forest, sakura, premium night, ice, volcano, neon, royal, prism). */
export const PACK_SCHEMES: readonly Scheme[] = [
  { bg: ['#2b0010', '#8e0c24', '#e0301e'], accent: '#ff8a1f', accent2: '#ffd23f', light: '#fff1c9' },
  { bg: ['#011633', '#04457f', '#0a8fd0'], accent: '#35e0ff', accent2: '#7dffcf', light: '#e8fbff' },
  { bg: ['#1d1300', '#7a4c00', '#f0a500'], accent: '#ffe14d', accent2: '#ff7a00', light: '#fffbe0' },
  { bg: ['#12002b', '#3d0f85', '#8a2be2'], accent: '#ff5cf0', accent2: '#8fd0ff', light: '#f3e8ff' },
  { bg: ['#00261a', '#0b5e3c', '#23a25a'], accent: '#a6ff5c', accent2: '#ffe45c', light: '#f1ffd9' },
  { bg: ['#3b0a2c', '#b8326e', '#ff8fb8'], accent: '#ffd1e3', accent2: '#fff07a', light: '#ffffff' },
  { bg: ['#04060d', '#141b33', '#2d3a66'], accent: '#e8c15a', accent2: '#fff0b0', light: '#fff8e1' },
  { bg: ['#062038', '#1b6ea8', '#7fd6ff'], accent: '#e0f7ff', accent2: '#b3ecff', light: '#ffffff' },
  { bg: ['#1a0500', '#6b1400', '#ff4d00'], accent: '#ffb300', accent2: '#ff2d55', light: '#ffe7c2' },
  { bg: ['#06001f', '#1a0a5e', '#3b0d8c'], accent: '#00f0ff', accent2: '#ff2bd6', light: '#e6fdff' },
  { bg: ['#070b33', '#1a2a8a', '#3553d6'], accent: '#ffd86b', accent2: '#c9d3ff', light: '#ffffff' },
  { bg: ['#120d24', '#2e1a57', '#5a2d8c'], accent: '#ff6fd8', accent2: '#5ef0ff', light: '#ffffff' },
];

export interface Element {
  frame: readonly [string, string];
  sky: readonly [string, string];
  body: string;
  belly: string;
  accent: string;
  dark: string;
}

export const ELEMENTS: readonly Element[] = [
  {
    frame: ['#ffc48a', '#c2410c'],
    sky: ['#ffe7b0', '#ff6a3d'],
    body: '#ff7b39',
    belly: '#ffe2a8',
    accent: '#ffd23f',
    dark: '#4a1200',
  },
  {
    frame: ['#a8ddff', '#1e5fa8'],
    sky: ['#d5f5ff', '#2b8fd9'],
    body: '#3fa9f5',
    belly: '#dcf5ff',
    accent: '#ffffff',
    dark: '#0b2a55',
  },
  {
    frame: ['#c6f59c', '#2f7d32'],
    sky: ['#efffd6', '#53b04a'],
    body: '#5cc46b',
    belly: '#ecffd4',
    accent: '#ffe066',
    dark: '#0f3716',
  },
  {
    frame: ['#fff29a', '#c79a00'],
    sky: ['#fffbd6', '#ffbf1a'],
    body: '#ffd21f',
    belly: '#fff6c6',
    accent: '#ff7a00',
    dark: '#432d00',
  },
  {
    frame: ['#f5c2ff', '#8e2bb8'],
    sky: ['#ffe6fc', '#b65bf0'],
    body: '#c56cf0',
    belly: '#fbe6ff',
    accent: '#ff5fae',
    dark: '#36094e',
  },
  {
    frame: ['#a5abc2', '#272b40'],
    sky: ['#555a7d', '#141726'],
    body: '#40456a',
    belly: '#9096ba',
    accent: '#ff3b6b',
    dark: '#07080f',
  },
  {
    frame: ['#eef2f7', '#76838f'],
    sky: ['#f6f9fc', '#9fb0c3'],
    body: '#b3c0cf',
    belly: '#f0f4f9',
    accent: '#33c6ff',
    dark: '#222c38',
  },
  {
    frame: ['#ffe09a', '#8a5a00'],
    sky: ['#3a2680', '#12092e'],
    body: '#5b3fd9',
    belly: '#ffd98a',
    accent: '#ff9a3c',
    dark: '#120829',
  },
];

export const GOLD: readonly [string, string] = ['#fff2b3', '#b07a10'];
export const FOIL_STOPS: readonly Stop[] = [
  [0, '#ff4fa3'],
  [0.2, '#ffd84f'],
  [0.4, '#5cffb0'],
  [0.6, '#4fc8ff'],
  [0.8, '#a45cff'],
  [1, '#ff4fa3'],
];
