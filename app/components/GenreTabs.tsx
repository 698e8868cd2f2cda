// Genre tabs under the header: すべて plus each genre, scrollable sideways on phones.
import { AppLink } from './AppLink';
import { useRootData } from '~/lib/root-data';

export function GenreTabs({ activeGenreId }: { activeGenreId: string | null }) {
  const root = useRootData();
  const tabs = [{ id: null, name: 'すべて' }, ...(root?.genres ?? [])];
  return (
    <nav aria-label="ジャンル" className="border-b border-line bg-white md:hidden">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-3 py-2 [scrollbar-width:none] sm:px-4">
        {tabs.map((tab) => {
          const active = tab.id === activeGenreId;
          return (
            <li key={tab.id ?? 'all'} className="shrink-0">
              <AppLink
                to={tab.id ? `/gacha/${tab.id}` : '/'}
                aria-current={active ? 'page' : undefined}
                className={`block rounded-full px-4 py-2 text-sm font-bold ${active ? 'bg-primary-ink text-white' : 'bg-canvas text-ink hover:bg-primary-soft'}`}
              >
                {tab.name}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
