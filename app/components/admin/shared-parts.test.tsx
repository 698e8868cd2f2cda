// The admin area's shared parts (decision 067) as their first response carries them: the confirmation
// dialog (a modal dialog named by its question, its hidden fields, the action and やめる, or the page's
// form submitted by name), the action answer (an alert or a status, for its form only), and the list
// parts (the filter bar, the table or its empty state, the page links and their addresses).
import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { ActionAnswer } from './ActionAnswer';
import { ConfirmDialog } from './ConfirmDialog';
import { FilterBar, FilterDateRange, FilterSelect, ListTable, PageLinks, pageHref } from './ListPage';
import { actionOk, actionRefused } from '~/lib/admin-action';

function rendered(node: ReactNode): string {
  const Stub = createRoutesStub([{ path: '/admin/x', Component: () => <>{node}</> }]);
  return renderToStaticMarkup(<Stub initialEntries={['/admin/x']} />);
}

describe('ConfirmDialog', () => {
  it('is a modal dialog named by its question, posting its hidden fields with the action or やめる', () => {
    const html = rendered(
      <ConfirmDialog
        title="この調整を却下しますか？"
        confirmLabel="却下する"
        confirmVariant="danger"
        hidden={{ intent: 'reject', id: 'a1' }}
        onCancel={() => {}}
        testId="ask"
      >
        <p>申請を却下します。</p>
      </ConfirmDialog>,
    );
    expect(html).toMatch(/role="dialog" aria-modal="true" aria-labelledby="([^"]+)" data-testid="ask"/);
    const labelled = /aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`id="${labelled}"`);
    expect(html).toContain('>この調整を却下しますか？</h2>');
    expect(html).toMatch(/<form [^>]*method="post">/);
    expect(html).toContain('<input type="hidden" name="intent" value="reject"/>');
    expect(html).toContain('<input type="hidden" name="id" value="a1"/>');
    expect(html).toContain('<p>申請を却下します。</p>');
    expect(html).toMatch(/<button type="submit"[^>]*class="[^"]*bg-red-600[^"]*"[^>]*>却下する<\/button>/);
    expect(html).toMatch(/<button type="button"[^>]*>やめる<\/button>/);
  });

  it("submits the page's own form, by name and value, when given its id", () => {
    const html = rendered(
      <ConfirmDialog
        title="発送済みにしますか？"
        confirmLabel="確認して発送済みにする"
        formId="desk-ship"
        confirmName="inquiriesSeen"
        confirmValue="q1,q2"
        onCancel={() => {}}
      />,
    );
    expect(html).not.toContain('<form');
    const submit = /<button type="submit"[^>]*>/.exec(html)?.[0] ?? '';
    expect(submit).toContain('form="desk-ship"');
    expect(submit).toContain('name="inquiriesSeen"');
    expect(submit).toContain('value="q1,q2"');
  });

  it('posts nothing when it confirms a change the page saves later', () => {
    const html = rendered(
      <ConfirmDialog
        title="スライス2（表）を削除しますか？"
        confirmLabel="削除する"
        confirmVariant="danger"
        hidden={{ intent: 'ignored' }}
        onConfirm={() => {}}
        onCancel={() => {}}
      />,
    );
    expect(html).not.toContain('<form');
    expect(html).not.toContain('type="hidden"');
    expect(html).not.toContain('type="submit"');
    expect(html).toMatch(/<button type="button"[^>]*class="[^"]*bg-red-600[^"]*"[^>]*>削除する<\/button>/);
    expect(html).toMatch(/<button type="button"[^>]*>やめる<\/button>/);
  });

  it('cannot be left while the action runs', () => {
    const html = rendered(<ConfirmDialog title="返金しますか？" confirmLabel="返金する" onCancel={() => {}} busy />);
    expect(html).toMatch(/<button type="button" disabled=""[^>]*>やめる<\/button>/);
    expect(html).toContain('aria-busy="true"');
  });
});

describe('ActionAnswer and the admin result', () => {
  it('shows a refusal as an alert and done words as a status', () => {
    expect(rendered(<ActionAnswer answer={{ error: '理由を入力してください。' }} />)).toMatch(
      /<p role="alert"[^>]*>理由を入力してください。<\/p>/,
    );
    expect(rendered(<ActionAnswer answer={actionOk('保存しました。')} className="mt-2" />)).toMatch(
      /<p role="status" class="[^"]* mt-2">保存しました。<\/p>/,
    );
  });

  it("shows only its own form's answer, and a refusal's detail under its words", () => {
    const answer = actionOk('メモを追加しました。', { form: 'note' });
    expect(rendered(<ActionAnswer answer={answer} form="age" />)).toBe('');
    expect(rendered(<ActionAnswer answer={answer} form="note" />)).toContain('メモを追加しました。');
    expect(rendered(<ActionAnswer answer={undefined} />)).toBe('');
    const detailed = rendered(<ActionAnswer answer={{ error: '取り込めません。' }} detail={<span>3行目</span>} />);
    expect(detailed).toMatch(
      /<div role="alert"[^>]*><p class="font-bold">取り込めません。<\/p><span>3行目<\/span><\/div>/,
    );
  });

  it('shows what was made under the done words when given a detail', () => {
    const html = rendered(
      <ActionAnswer
        answer={actionOk('10件のコードを作りました。')}
        detail={<a href="/x.csv">CSVをダウンロード（10件）</a>}
      />,
    );
    expect(html).toMatch(
      /<div role="status"[^>]*><p class="font-bold">10件のコードを作りました。<\/p><a href="\/x.csv">CSVをダウンロード（10件）<\/a><\/div>/,
    );
  });

  it('answers a refusal with its status (400 unless told), its form and field words', () => {
    const plain = actionRefused('操作を選び直してください。');
    expect(plain.init?.status).toBe(400);
    expect(plain.data).toEqual({ error: '操作を選び直してください。' });
    const told = actionRefused('見つかりません。', { form: 'a1', status: 404, fields: { id: '違います' } });
    expect(told.init?.status).toBe(404);
    expect(told.data).toEqual({ error: '見つかりません。', form: 'a1', fields: { id: '違います' } });
    expect(actionOk('承認しました。', { form: 'a1' })).toEqual({ ok: '承認しました。', form: 'a1' });
  });
});

describe('the list page parts', () => {
  it('shows the empty state instead of an empty table', () => {
    const html = rendered(
      <ListTable items={[]} empty="条件に合う注文はありません。" head={['受付番号']} row={() => null} />,
    );
    expect(html).not.toContain('<table');
    expect(html).toContain('>条件に合う注文はありません。</p>');
  });

  it('shows the rows under their column heads and a name for screen readers', () => {
    const html = rendered(
      <ListTable
        items={[{ id: 'o1' }]}
        empty="なし"
        caption="注文の一覧"
        head={['受付番号', ['金額', 'text-right']]}
        row={(o) => (
          <tr key={o.id}>
            <td>{o.id}</td>
          </tr>
        )}
      />,
    );
    expect(html).toContain('<caption class="sr-only">注文の一覧</caption>');
    expect(html).toContain('<th scope="col" class="p-3">受付番号</th>');
    expect(html).toContain('<th scope="col" class="p-3 text-right">金額</th>');
    expect(html).toContain('<tbody><tr><td>o1</td></tr></tbody>');
  });

  it('filters by GET with 絞り込む, the way back to no filters and why a filter was not used', () => {
    const html = rendered(
      <FilterBar clearTo="/admin/orders" filterError="日付を確認してください。">
        <input name="q" />
      </FilterBar>,
    );
    expect(html).toMatch(/<form [^>]*method="get"><input name="q"\/><button type="submit"[^>]*>絞り込む<\/button>/);
    expect(html).toContain('href="/admin/orders"');
    expect(html).toContain('>条件をクリア</a>');
    expect(html).toMatch(/<p role="alert"[^>]*>日付を確認してください。（条件なしで表示しています）<\/p>/);
  });

  it('names the way back in its own words, and says nothing more of a filter not used when told', () => {
    const html = rendered(
      <FilterBar
        clearTo="/admin/signals"
        clearLabel="未対応に戻す"
        filterError="種類を選び直してください。"
        fallbackNote={null}
      >
        <input name="kind" />
      </FilterBar>,
    );
    expect(html).toContain('>未対応に戻す</a>');
    expect(html).not.toContain('条件をクリア');
    expect(html).toMatch(/<p role="alert"[^>]*>種類を選び直してください。<\/p>/);
    expect(rendered(<FilterBar>{null}</FilterBar>)).not.toContain('role="alert"');
  });

  it('offers すべて first in a select filter, and a day range as から and まで', () => {
    const html = rendered(
      <>
        <FilterSelect label="状態" name="status" defaultValue="review" options={[{ id: 'review', label: '確認中' }]} />
        <FilterDateRange label="注文日" from="2026-11-01" to={undefined} />
      </>,
    );
    expect(html).toMatch(
      /状態<select name="status"[^>]*><option value="">すべて<\/option><option value="review" selected="">確認中<\/option>/,
    );
    expect(html).toMatch(/注文日（から）<input type="date"[^>]*name="from" value="2026-11-01"/);
    expect(html).toMatch(/注文日（まで）<input type="date"[^>]*name="to"\/>/);
  });

  it('links the previous and next pages with the same filters', () => {
    expect(pageHref('/admin/orders', { status: 'review', memberId: '', page: 2 }, 3)).toBe(
      '/admin/orders?status=review&page=3',
    );
    const html = rendered(<PageLinks page={2} hasNext href={(p) => pageHref('/admin/members', { q: 'たろう' }, p)} />);
    expect(html).toMatch(/<nav aria-label="ページ"/);
    expect(html).toMatch(
      new RegExp(`href="/admin/members\\?q=${encodeURIComponent('たろう')}&amp;page=1"[^>]*>前のページ</a>`),
    );
    expect(html).toContain('>次のページ</a>');
    expect(rendered(<PageLinks page={1} hasNext={false} href={() => ''} />)).not.toContain('<a');
  });

  it('shows 「page / pages」 between its links when the list knows its page count, in its own words', () => {
    const html = rendered(
      <PageLinks
        page={2}
        pages={3}
        hasNext
        previousLabel="前へ"
        nextLabel="次へ"
        href={(p) => `/admin/content?page=${p}`}
      />,
    );
    expect(html).toMatch(/>前へ<\/a><span>2 \/ 3<\/span><a [^>]*>次へ<\/a>/);
    expect(rendered(<PageLinks page={1} hasNext href={() => ''} />)).not.toContain('<span>');
  });
});
