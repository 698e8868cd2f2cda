// Page heading and honest empty states for pages whose feature arrives in a later release.
import type { ReactNode } from 'react';

export function PageHeading({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <div className="mb-4">
      <h1 className="text-xl font-black sm:text-2xl">{title}</h1>
      {lead ? <p className="mt-1 text-sm text-muted">{lead}</p> : null}
    </div>
  );
}

/** An empty state: a soft illustration, a message, and optionally a way forward. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section
      className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line bg-white px-6 py-12 text-center"
      aria-label={title}
    >
      <div
        aria-hidden="true"
        className="flex size-14 items-center justify-center rounded-full bg-primary-soft text-2xl"
      >
        ✦
      </div>
      <h2 className="text-base font-bold">{title}</h2>
      {children ? <div className="max-w-sm text-sm leading-relaxed text-muted">{children}</div> : null}
      {action}
    </section>
  );
}

export function Container({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`mx-auto w-full max-w-6xl px-3 py-4 sm:px-4 sm:py-6 ${className}`}>{children}</div>;
}
