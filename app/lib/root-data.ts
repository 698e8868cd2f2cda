// The root loader's data, readable from any component (header, footer, pages).
import { useRouteLoaderData } from 'react-router';
import type { InAppNotice } from '~/guards/rules';

export interface RootData {
  member: { id: string; name: string; role: string } | null;
  site: { name: string; tagline: string; origin: string };
  buildId: string;
  buildPollSeconds: number;
  genres: { id: string; name: string; iconPath: string | null }[];
  notice: InAppNotice | null;
}

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}
