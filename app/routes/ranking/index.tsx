// /ranking: redirects to /ranking/daily/goodluck (the route rule answers first).
import { redirect } from 'react-router';

export function loader() {
  return redirect('/ranking/daily/goodluck');
}

export default function RankingIndex() {
  return null;
}
