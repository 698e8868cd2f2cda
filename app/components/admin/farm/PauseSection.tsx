// The farm's pause switch: resume at once, pause only after asking.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { FarmActionData } from '~/controllers/admin-farm.server';

const PAUSE_QUESTION = 'ファームを一時停止します。会員は植え付け・水やり・収穫ができなくなります。';

export function PauseSection({ paused, answer }: { paused: boolean; answer: FarmActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('form') === 'pause';
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (answer?.form === 'pause') setAsking(false);
  }, [answer]);
  return (
    <section
      aria-labelledby="farm-state"
      className={`mt-6 rounded-2xl border-2 p-5 ${paused ? 'border-amber-500 bg-amber-50' : 'border-green-600 bg-white'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="farm-state" className="text-lg font-bold">
            現在の状態：
            <span className={paused ? 'text-amber-900' : 'text-green-800'}>{paused ? '一時停止中' : '稼働中'}</span>
          </h2>
          <p className="mt-1 text-sm">
            {paused
              ? '会員は植え付け・水やり・収穫ができません。畑の表示はでき、作物の時間はそのまま進みます。'
              : '会員は植え付け・水やり・収穫・友達の畑への水やりができます。'}
          </p>
        </div>
        {paused ? (
          <Form method="post">
            <input type="hidden" name="form" value="pause" />
            <input type="hidden" name="intent" value="resume" />
            <Button type="submit" loading={busy}>
              ファームを再開する
            </Button>
          </Form>
        ) : (
          <Button type="button" variant="danger" onClick={() => setAsking(true)}>
            ファームを一時停止する…
          </Button>
        )}
      </div>
      <div className="mt-3">
        <ActionAnswer answer={answer} form="pause" />
      </div>
      {asking ? (
        <ConfirmDialog
          title="ファームを一時停止しますか？"
          confirmLabel="一時停止する"
          confirmVariant="danger"
          hidden={{ form: 'pause', intent: 'pause', confirmed: 'yes' }}
          busy={busy}
          onCancel={() => setAsking(false)}
          bodyClassName="mt-3 grid gap-3"
        >
          <p className="text-sm">{PAUSE_QUESTION}</p>
          <p className="text-sm text-muted">
            畑の表示はでき、作物の時間はそのまま進みます。再開はこのページからいつでもできます。
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
