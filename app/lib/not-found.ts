// Throwing a 404 from a loader or middleware: the error carries what the not-found page needs.
import { data } from 'react-router';
import { notFoundMessage } from '#modules/kernel/navigation';

export interface NotFoundPayload {
  message: string;
  site?: { name: string; tagline: string; origin: string; description?: string };
}

/** @example throw notFound(url.pathname) */
export function notFound(pathname: string, site?: NotFoundPayload['site']) {
  return data<NotFoundPayload>({ message: notFoundMessage(pathname), site }, { status: 404 });
}
