// /auth: redirects to / (the route rule in app/guards/rules.ts answers before this loader runs).
import { redirect } from 'react-router';

export function loader() {
  return redirect('/');
}

export default function AuthIndex() {
  return null;
}
