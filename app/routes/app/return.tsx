// /app/return: the end of an app checkout; the native app closes its web view here.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'アプリに戻る' };

export default function AppReturn() {
  return (
    <FeaturePage title="アプリに戻る" emptyTitle="お手続きが終わりました">画面を閉じてアプリに戻ってください。</FeaturePage>
  );
}
