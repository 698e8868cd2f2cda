// The browser verification of an ended pack's reveal (decision 043): fetches the reveal file and runs
// verifyReveal's checks in the visitor's own browser (Web Crypto). Loaded lazily by PackDisclosure.
import { useState } from 'react';
import { readRevealText, verifyRevealInBrowser, type RevealVerification } from '#modules/fairness/browser';
import { Button } from '~/components/Button';

type VerifierState =
  | { step: 'idle' }
  | { step: 'running' }
  | { step: 'done'; result: RevealVerification; matchesPage: boolean | null }
  | { step: 'error'; message: string };

/**
 * Fetches the reveal file and verifies it here, in the browser: nothing is computed or judged by the shop.
 * Besides verifyReveal's checks, the file's commitment must be the one this page has shown since the sale.
 */
export default function BrowserVerifier({
  gachaId,
  commitment,
  revealHref,
}: {
  gachaId: string;
  commitment: string;
  /** Where the pack's reveal file is served (PackDisclosure's revealUrl). */
  revealHref: string;
}) {
  const [state, setState] = useState<VerifierState>({ step: 'idle' });
  const run = async () => {
    setState({ step: 'running' });
    if (!globalThis.crypto?.subtle) {
      setState({
        step: 'error',
        message:
          'このブラウザでは暗号機能（Web Crypto）が使えないため検証できません。別のブラウザか、検証用ファイルと verify-pack をお使いください。',
      });
      return;
    }
    let text: string;
    try {
      const response = await fetch(revealHref, { headers: { accept: 'application/json' } });
      if (!response.ok) {
        setState({
          step: 'error',
          message: `検証用ファイルを取得できませんでした（HTTP ${response.status}）。時間をおいてもう一度お試しください。`,
        });
        return;
      }
      text = await response.text();
    } catch {
      setState({
        step: 'error',
        message: '検証用ファイルを取得できませんでした。通信環境を確認して、もう一度お試しください。',
      });
      return;
    }
    const read = readRevealText(text);
    if (!read.ok) {
      setState({ step: 'error', message: `検証用ファイルを読み込めません: ${read.error}` });
      return;
    }
    try {
      const result = await verifyRevealInBrowser(read.value);
      const file = read.value as { commitment?: unknown; gacha?: { id?: unknown } };
      // Only a well-formed file (stats present) is compared with the page.
      const matchesPage = result.stats ? file.commitment === commitment && file.gacha?.id === gachaId : null;
      setState({ step: 'done', result, matchesPage });
    } catch (error) {
      setState({ step: 'error', message: `検証を実行できませんでした（${(error as Error).message}）` });
    }
  };

  const checks =
    state.step === 'done'
      ? [
          ...(state.matchesPage === null
            ? []
            : [
                {
                  name: 'このページのコミットメントとの一致',
                  ok: state.matchesPage,
                  detail: state.matchesPage
                    ? 'ファイルのコミットメントは、このページで販売前から公開しているものと同じです'
                    : 'ファイルのコミットメント（またはオリパ）が、このページで公開しているものと違います',
                },
              ]),
          ...state.result.checks,
        ]
      : [];
  const failed = checks.filter((c) => !c.ok).length;
  const passed = state.step === 'done' && failed === 0;

  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="secondary"
        fullWidth
        loading={state.step === 'running'}
        onClick={() => void run()}
        className="sm:w-auto sm:self-start"
      >
        このブラウザで検証する
      </Button>
      <div aria-live="polite" aria-atomic="false" className="flex flex-col gap-2" data-testid="browser-verification">
        {state.step === 'running' && (
          <p className="text-muted">検証しています…（全口の並びをシードから計算し直しています）</p>
        )}
        {state.step === 'error' && (
          <p className="rounded-lg bg-red-50 p-2 font-bold text-red-800" data-testid="browser-verification-error">
            {state.message}
          </p>
        )}
        {state.step === 'done' && (
          <>
            <p
              className={`rounded-lg p-2 font-black ${passed ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
              data-testid="browser-verification-result"
            >
              {passed
                ? `検証成功：${checks.length} 項目すべてに合格しました。口の中身と並び順は販売前に固定されていました。`
                : `検証失敗：${checks.length} 項目中 ${failed} 項目が不合格です。`}
            </p>
            <ul className="flex flex-col gap-1" aria-label="検証項目">
              {checks.map((check) => (
                <li key={check.name} className="flex gap-2" data-check-ok={check.ok}>
                  <span aria-hidden="true" className={`font-black ${check.ok ? 'text-emerald-700' : 'text-red-700'}`}>
                    {check.ok ? '✓' : '✗'}
                  </span>
                  <span className="min-w-0 break-words">
                    <b>{check.name}</b>
                    <span className="sr-only">{check.ok ? '（合格）' : '（不合格）'}</span>：{check.detail}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
