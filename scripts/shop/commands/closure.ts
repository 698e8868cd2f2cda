// closure:announce / closure:status / closure:cancel / closure:refund-paid / closure:report: the shop's closure
// from the command line (decision 085), the same audited actions as /admin/closure; through the running shop on
// the embedded database (decision 020).
import { stringify } from 'csv-stringify/sync';
import { announceClosureAsOperator, cancelClosureAsOperator, recordClosureRefundPaidAsOperator } from '#modules/admin';
import {
  CLOSURE_REPORT_COLUMNS,
  closureAnnouncementSchema,
  closureReportPage,
  closureReportTotals,
  closureSummary,
  closureTimeText,
  closurePhase,
  readClosure,
  refundPaidSchema,
  type ShopClosure,
} from '#modules/shop';
import { parseWithMessage } from '#modules/kernel';
import { UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

const view = (closure: ShopClosure) => ({
  id: closure.id,
  phase: closurePhase(closure, new Date()),
  announcedAt: closure.announcedAt.toISOString(),
  salesStopAt: closure.salesStopAt.toISOString(),
  salesStopJst: closureTimeText(closure.salesStopAt),
  refundDeadline: closure.refundDeadline.toISOString(),
  refundDeadlineJst: closureTimeText(closure.refundDeadline),
  announcedBy: closure.announcedBy,
});

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const closureAnnounce: ShopCommand = {
  name: 'closure:announce',
  usage:
    '--deadline "2027-03-31 23:59" --notice-file notice.txt [--sales-stop "2027-01-31 23:59"]   閉店の告知（日本時間。販売停止の省略はすぐ）',
  options: { deadline: { type: 'string' }, 'sales-stop': { type: 'string' }, 'notice-file': { type: 'string' } },
  inputFiles: ({ values }) => (typeof values['notice-file'] === 'string' ? [values['notice-file']] : []),
  async run({ db, out, operator, files }, { values }) {
    if (typeof values['notice-file'] !== 'string')
      throw new UsageError('--notice-file に公告文のファイルを指定してください。');
    const notice = await files.read(values['notice-file']);
    const parsed = parseWithMessage(closureAnnouncementSchema, {
      salesStopAt: text(values['sales-stop']),
      refundDeadline: text(values.deadline),
      notice,
    });
    if (!parsed.ok) throw new UsageError(parsed.message);
    const closure = settled(
      await announceClosureAsOperator(db, operator, { ...parsed.data, refundDeadline: parsed.data.refundDeadline! }),
    );
    out(JSON.stringify(view(closure)));
  },
};

export const closureStatus: ShopCommand = {
  name: 'closure:status',
  usage: '                                     閉店の状況（通知・申し込み・振込）',
  options: {},
  async run({ db, out }) {
    const closure = await readClosure(db);
    out(JSON.stringify(closure ? { ...view(closure), ...(await closureSummary(db, closure.id)) } : { closure: null }));
  },
};

export const closureCancel: ShopCommand = {
  name: 'closure:cancel',
  usage: '                                     販売停止前の閉店告知を取り消す',
  options: {},
  async run({ db, out, operator }) {
    out(JSON.stringify(view(settled(await cancelClosureAsOperator(db, operator)))));
  },
};

export const closureRefundPaid: ShopCommand = {
  name: 'closure:refund-paid',
  usage: '--refund <id> --reference <振込の参照番号> --coins <確認した有償コイン>   払戻しの振込を記録',
  options: { refund: { type: 'string' }, reference: { type: 'string' }, coins: { type: 'string' } },
  async run({ db, out, operator }, { values }) {
    const parsed = parseWithMessage(refundPaidSchema, {
      reference: text(values.reference),
      confirmedCoins: text(values.coins),
    });
    if (!parsed.ok) throw new UsageError(parsed.message);
    const refund = settled(await recordClosureRefundPaidAsOperator(db, operator, text(values.refund), parsed.data));
    out(
      JSON.stringify({
        id: refund.id,
        memberId: refund.memberId,
        paidCoins: refund.paidCoins,
        refundJpy: refund.refundJpy,
      }),
    );
  },
};

export const closureReport: ShopCommand = {
  name: 'closure:report',
  usage: '--out closure.csv                    会計用の報告（会員ごとの未使用の有償コイン・払戻し、合計）',
  options: { out: { type: 'string' } },
  async run({ db, out, files }, { values }) {
    if (typeof values.out !== 'string') throw new UsageError('--out に書き出すCSVファイルを指定してください。');
    const closure = await readClosure(db);
    if (!closure) throw new UsageError('告知中の閉店はありません。');
    const rows: (string | number)[][] = [CLOSURE_REPORT_COLUMNS];
    for (let after = ''; ;) {
      const page = await closureReportPage(db, closure, after, 5_000);
      rows.push(...page.map((l) => l.cells));
      if (page.length < 5_000) break;
      after = page[page.length - 1]!.key;
    }
    rows.push(...(await closureReportTotals(db, closure)));
    await files.write(values.out, `\uFEFF${stringify(rows, { record_delimiter: 'windows', escape_formulas: true })}`);
    out(JSON.stringify({ out: values.out, lines: rows.length - 1 }));
  },
};
