// /myinbox/mail/{mailId}: one mail. No mail exists before the mailbox feature, so any id is a 404.
import type { Route } from './+types/mail';
import { notFound } from '~/lib/not-found';

export const handle = { title: 'メール' };

export function loader({ request }: Route.LoaderArgs) {
  throw notFound(new URL(request.url).pathname);
}

export default function Mail() {
  return null;
}
