// POST /admin/content/images: an image for the content editor, through the banners' resizer without
// the crop (max 1200 wide, by content hash); JSON { url, width, height } or { error }. Audited.
import type { Route } from './+types/images';
import { shopRequestContext } from '#server/context';
import { contentImageUploadAction } from '~/controllers/admin-content.server';

export async function action({ request, context }: Route.ActionArgs) {
  return contentImageUploadAction(context.get(shopRequestContext), request);
}
