// Links from content: a link field (or a rich-text span) resolved by linkUrl, so only site paths and
// http(s) reach the page. Links off the site say so visibly (外部サイト) and open no window handle back
// to us (rel="noopener noreferrer"); site paths stay plain links.
import type { ReactNode } from 'react';
import { linkUrl, type LinkField } from '#modules/content/render';
import { buttonClassName } from '../Button';

/** Whether a safe href leaves the site (anything but a site path). */
export const isExternalHref = (href: string) => !href.startsWith('/');

/** The visible mark after a link that leaves the site. */
export function ExternalMark() {
  return (
    <span className="ml-1 inline-block rounded border border-line px-1 align-middle text-xs leading-4 font-bold text-muted no-underline">
      外部サイト
    </span>
  );
}

/** An <a> for an already-checked href: external links get rel and the mark. */
export function SafeAnchor({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  const external = isExternalHref(href);
  return (
    <a href={href} className={className} rel={external ? 'noopener noreferrer' : undefined}>
      {children}
      {external ? <ExternalMark /> : null}
    </a>
  );
}

/**
 * A link field as a link; its text alone when the link is empty, broken or unsafe.
 * @example <ContentLink link={{ link_type: 'Web', url: '/guide' }}>ガイド</ContentLink>
 */
export function ContentLink({
  link,
  className = 'text-primary-ink underline',
  children,
}: {
  link: LinkField | { url: string } | null | undefined;
  className?: string;
  children: ReactNode;
}) {
  const href = linkUrl(link);
  return href ? (
    <SafeAnchor href={href} className={className}>
      {children}
    </SafeAnchor>
  ) : (
    <>{children}</>
  );
}

/**
 * The button slice: a link styled as the shop's primary button, full width on a phone. Nothing when
 * the link does not resolve (a button that goes nowhere would only confuse).
 */
export function ContentButton({ label, link }: { label: string; link: LinkField | null | undefined }) {
  const href = linkUrl(link);
  if (!href || !label.trim()) return null;
  return (
    <div className="my-2 flex justify-center">
      <SafeAnchor href={href} className={buttonClassName({ size: 'md', className: 'w-full sm:w-auto sm:min-w-64' })}>
        {label}
      </SafeAnchor>
    </div>
  );
}
