// The catalogue's ids and the statuses a visitor may see.
import { z } from 'zod';
import type { GachaStatus } from './schema';

/** Statuses a visitor may see; drafts stay hidden. */
export const PUBLIC_GACHA_STATUSES: GachaStatus[] = ['scheduled', 'on_sale', 'sold_out', 'ended'];

/** What the edge answers when a pack or genre asked for does not exist (or is not public). */
export const GACHA_LOOKUP_REFUSAL_CODES = ['GACHA_NOT_FOUND', 'GENRE_NOT_FOUND'] as const;
export type GachaLookupRefusalCode = (typeof GACHA_LOOKUP_REFUSAL_CODES)[number];

/** A pack id as the catalogue, the draw and the API accept it (ids are short slugs). */
export const gachaIdSchema = z.string().min(1).max(100);

/** Ids of genres and packs: ASCII letters, digits, '-' and '_' (they appear in URLs). */
const CATALOGUE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** @example isCatalogueId('stellar-pokemon-001') === true; isCatalogueId('a b') === false */
export const isCatalogueId = (value: string) => CATALOGUE_ID.test(value);
