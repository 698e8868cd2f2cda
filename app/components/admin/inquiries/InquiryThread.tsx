// The inquiry's thread: the inquirer's messages and the staff's answers, with attached images as thumbnails.
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { InquiryPage } from './answer';

export function InquiryThread({ messages }: { messages: InquiryPage['inquiry']['messages'] }) {
  return (
    <section aria-labelledby="thread" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="thread" className="text-base font-bold">
        やりとり
      </h2>
      <ol className="mt-3 flex flex-col gap-3">
        {messages.map((m) => (
          <li
            key={m.id}
            className={`rounded-xl p-3 text-sm ${m.author === 'staff' ? 'ml-6 bg-sky-50' : 'mr-6 bg-slate-50'}`}
          >
            <p className="text-xs font-bold">
              {m.author === 'staff' ? `スタッフ（${m.staffName ?? '—'}）` : 'お客様'}
              <span className="ml-2 font-normal text-muted">{formatStaffDateTime(m.at)}</span>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words leading-relaxed">{m.body}</p>
            {m.attachments.length ? (
              <ul className="mt-2 flex flex-wrap gap-2" aria-label="添付画像">
                {m.attachments.map((a, index) => (
                  <li key={a.id}>
                    <a
                      href={`/admin/inquiries/attachments/${a.id}`}
                      target="_blank"
                      rel="noreferrer"
                      className="block rounded-lg border border-line bg-white p-1 hover:border-ink"
                    >
                      <img
                        src={`/admin/inquiries/attachments/${a.id}?size=thumb`}
                        alt={`添付画像${index + 1}（${a.width}×${a.height}）`}
                        loading="lazy"
                        className="h-28 w-auto max-w-40 rounded object-contain"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
