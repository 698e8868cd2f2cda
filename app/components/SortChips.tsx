// Sort chips: おすすめ・新着・安い順・高い順, as links so they work before hydration.
import { useSearchParams } from 'react-router';
import { AppLink } from './AppLink';

export const SORT_OPTIONS = [
  { value: 'recommended', label: 'おすすめ' },
  { value: 'new', label: '新着' },
  { value: 'price_asc', label: '安い順' },
  { value: 'price_desc', label: '高い順' },
] as const;

export function SortChips() {
  const [params] = useSearchParams();
  const current = params.get('sort') ?? 'recommended';
  return (
    <nav aria-label="並び替え" className="flex gap-1.5 overflow-x-auto [scrollbar-width:none]">
      {SORT_OPTIONS.map((option) => {
        const next = new URLSearchParams(params);
        if (option.value === 'recommended') next.delete('sort');
        else next.set('sort', option.value);
        const query = next.toString();
        const active = current === option.value;
        return (
          <AppLink
            key={option.value}
            to={{ search: query ? `?${query}` : '' }}
            preventScrollReset
            aria-current={active ? 'true' : undefined}
            className={`shrink-0 rounded-full border px-3 py-1.5 text-xs font-bold ${active ? 'border-primary-ink bg-primary-ink text-white' : 'border-line bg-white text-muted'}`}
          >
            {option.label}
          </AppLink>
        );
      })}
    </nav>
  );
}
