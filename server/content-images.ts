// GET /media/content/<hash>.webp: images placed in content by the editor (/admin/content), stored by
// content hash under DATA_DIR/media/content (docs/decisions/040).
import path from 'node:path';
import { contentImageFile } from '#modules/content';
import { createHashedImageRoute } from './hashed-images';

/** Where the editor's upload writes and this route reads content images. */
export const contentImagesDir = (dataDir: string) => path.join(dataDir, 'media', 'content');

/** @example app.route('/media/content', createContentImageRoute(config.dataDir)) */
export const createContentImageRoute = (dataDir: string) =>
  createHashedImageRoute(contentImagesDir(dataDir), contentImageFile);
