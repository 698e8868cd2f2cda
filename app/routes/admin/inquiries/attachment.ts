// /admin/inquiries/attachments/:attachmentId(?size=thumb): an image attached to an inquiry, re-encoded
// when it was sent, served only to operators with inquiries:read (a resource route: no page around it).
import type { Route } from './+types/attachment';
import { shopRequestContext } from '#server/context';
import { attachmentLoader } from '~/controllers/admin-inquiries.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return attachmentLoader(context.get(shopRequestContext), request, params.attachmentId);
}
