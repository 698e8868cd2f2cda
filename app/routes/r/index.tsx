// /r: redirects to / (the route rule answers first).
import { redirect } from 'react-router';

export function loader() {
  return redirect('/');
}

export default function RIndex() {
  return null;
}
