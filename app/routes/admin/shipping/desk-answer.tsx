// The desk's action answer (the admin result, decision 067), with the CSV import's faulty lines under
// a refusal.
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import type { DeskActionData } from '~/controllers/admin-shipping.server';

/**
 * @example <DeskAnswer answer={answer} form="csv" />
 */
export function DeskAnswer({ answer, form }: { answer: DeskActionData | undefined; form?: string }) {
  const problems = answer?.problems ?? [];
  return (
    <ActionAnswer
      answer={answer}
      form={form}
      detail={
        problems.length > 0 ? (
          <table className="mt-2 w-full text-left text-xs">
            <thead>
              <tr>
                <th scope="col" className="w-16 py-1">
                  行
                </th>
                <th scope="col" className="py-1">
                  内容
                </th>
              </tr>
            </thead>
            <tbody>
              {problems.map((p, i) => (
                <tr key={`${p.line}-${i}`} className="border-t border-red-200 align-top">
                  <td className="py-1 font-mono">{p.line ?? '—'}</td>
                  <td className="py-1">{p.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null
      }
    />
  );
}
