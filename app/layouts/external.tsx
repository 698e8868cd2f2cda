// External layout (sign-in, sign-up, app web views): a slim header and a centred column.
import { Outlet } from 'react-router';
import { AppLink } from '~/components/AppLink';
import { useRootData } from '~/lib/root-data';
import { KobutsuLine, SLIM_LEGAL_LINKS } from '~/components/SiteFooter';
import { HeaderWallet } from '~/components/SiteHeader';

export default function ExternalLayout() {
  const root = useRootData();
  return (
    <>
      <header className="border-b border-line bg-white pt-safe">
        <div
          className={`mx-auto flex h-14 max-w-md items-center px-4 ${root?.wallet ? 'justify-between' : 'justify-center'}`}
        >
          <AppLink
            to="/"
            className="flex shrink-0 items-center gap-1.5 whitespace-nowrap text-lg font-black text-primary-ink"
            aria-label={`${root?.site.name ?? ''} トップページ`}
          >
            <span
              aria-hidden="true"
              className="inline-block size-7 rounded-lg bg-gradient-to-br from-primary to-amber-400"
            />
            {/* As in the site header: on a member's phone the mark alone stands for the name, the wallet needs the room. */}
            <span className={root?.wallet ? 'hidden sm:inline' : ''}>{root?.site.name}</span>
          </AppLink>
          <HeaderWallet />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-md px-4 py-6">
        <Outlet />
      </main>
      <footer className="mx-auto max-w-md px-4 pb-10 pb-safe">
        <nav aria-label="規約・法定表示" className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs">
          {SLIM_LEGAL_LINKS.map((link) => (
            <AppLink key={link.to} to={link.to} className="py-2 text-muted underline-offset-2 hover:underline">
              {link.label}
            </AppLink>
          ))}
        </nav>
        <KobutsuLine />
      </footer>
    </>
  );
}
