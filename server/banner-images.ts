// GET /media/banners/<hash>.webp: the home banners' art as /admin/banners stored it under
// DATA_DIR/media/banners (docs/decisions/031).
import path from 'node:path';
import { bannerImageFile } from '#modules/content';
import { createHashedImageRoute } from './hashed-images';

/** Where /admin/banners writes and this route reads the banners' art. */
export const bannerImagesDir = (dataDir: string) => path.join(dataDir, 'media', 'banners');

/** @example app.route('/media/banners', createBannerImageRoute(config.dataDir)) */
export const createBannerImageRoute = (dataDir: string) =>
  createHashedImageRoute(bannerImagesDir(dataDir), bannerImageFile);
