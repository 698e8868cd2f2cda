// /myinbox: redirects to /myinbox/idvs (the route rule answers first).
import { redirect } from 'react-router';

export function loader() {
  return redirect('/myinbox/idvs');
}

export default function InboxIndex() {
  return null;
}
