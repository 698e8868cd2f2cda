// The pack page's breadcrumb: top, the pack's genre, the pack.
import { AppLink } from '~/components/AppLink';

export function PackBreadcrumb({ genreId, genreName, title }: { genreId: string; genreName: string; title: string }) {
  return (
    <nav aria-label="パンくずリスト" className="text-xs text-muted">
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <AppLink to="/" className="hover:underline">
            トップ
          </AppLink>
        </li>
        <li aria-hidden="true">›</li>
        <li>
          <AppLink to={`/gacha/${genreId}`} className="hover:underline">
            {genreName}
          </AppLink>
        </li>
        <li aria-hidden="true">›</li>
        <li aria-current="page" className="line-clamp-1 text-ink">
          {title}
        </li>
      </ol>
    </nav>
  );
}
