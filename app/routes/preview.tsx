// /preview: content previews from the content store (for editors).
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'プレビュー' };

export default function Preview() {
  return (
    <FeaturePage title="プレビュー" emptyTitle="プレビューするページがありません">
      管理画面の「プレビュー」から開くと、公開前のページをここで確認できます。
    </FeaturePage>
  );
}
