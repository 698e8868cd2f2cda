// The footer: legal pages every Japanese shop must link, the guide, and the contact form they promise.
import { AppLink } from './AppLink';
import { useRootData } from '~/lib/root-data';

export const LEGAL_LINKS = [
  { to: '/guide', label: 'ご利用ガイド' },
  { to: '/notices', label: 'お知らせ' },
  { to: '/terms', label: '利用規約' },
  { to: '/privacy', label: 'プライバシーポリシー' },
  { to: '/tokushoho', label: '特定商取引法に基づく表記' },
  { to: '/shikin', label: '資金決済法に基づく表示' },
  { to: '/kobutsu', label: '古物営業法に基づく表示' },
  { to: '/oripa-haishutsu', label: 'オリパの排出について' },
  { to: '/account-policy', label: 'アカウントの利用制限について' },
  { to: '/contact', label: 'お問い合わせ' },
] as const;

/** The slim footers' links (sign-in, app web views): the terms, privacy and 特定商取引法. */
export const SLIM_LEGAL_LINKS = LEGAL_LINKS.filter((link) => ['/terms', '/privacy', '/tokushoho'].includes(link.to));

/**
 * The 古物営業法 line (permit number, issuing 公安委員会) every page's footer shows, one link from the
 * top page. `dark` for the result page's dark stage.
 */
export function KobutsuLine({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const note = useRootData()?.footerNote;
  return note ? (
    <p
      className={`px-4 pb-2 text-center text-xs ${tone === 'dark' ? 'text-white/70' : 'text-muted'}`}
      data-testid="kobutsu-line"
    >
      <AppLink to="/kobutsu" className="underline-offset-2 hover:underline">
        {note}
      </AppLink>
    </p>
  ) : null;
}

export function SiteFooter() {
  const root = useRootData();
  return (
    <footer className="mt-12 border-t border-line bg-white pb-24 md:pb-8">
      <nav
        aria-label="規約・法定表示"
        className="mx-auto grid max-w-6xl grid-cols-2 gap-x-4 gap-y-1 px-4 py-6 text-sm sm:grid-cols-3"
      >
        {LEGAL_LINKS.map((link) => (
          <AppLink
            key={link.to}
            to={link.to}
            className="py-2 text-muted underline-offset-2 hover:text-ink hover:underline"
          >
            {link.label}
          </AppLink>
        ))}
      </nav>
      <KobutsuLine />
      <p className="px-4 text-center text-xs text-muted">© {root?.site.name}</p>
    </footer>
  );
}
