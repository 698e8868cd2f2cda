// /r: redirects to / (the specification's route rule answers first, in the root middleware). An
// invitation link /r?code=… also leaves the code in a short-lived cookie on the way (server/invitation.ts,
// decision 038), which the sign-up attaches; the home and sign-up pages say so.
import { redirect } from 'react-router';

export function loader() {
  return redirect('/');
}

export default function RIndex() {
  return null;
}
