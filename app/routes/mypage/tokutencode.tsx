// /mypage/tokutencode: redeeming 特典コード.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: '特典コード' };

export default function TokutenCode() {
  return (
    <FeaturePage membersOnly title="特典コード" emptyTitle="特典コードの入力は準備中です">
      キャンペーンなどで配布された特典コードは、受付開始後にこちらで入力できます。
    </FeaturePage>
  );
}
