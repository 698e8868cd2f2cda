// /auth: redirects to / (the route rule in modules/kernel/navigation.ts answers before this loader runs).
import { redirect } from 'react-router';

export function loader() {
  return redirect('/');
}

export default function AuthIndex() {
  return null;
}
