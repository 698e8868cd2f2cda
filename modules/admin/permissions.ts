// The permissions of the admin area: stable strings (`area:verb`) with the Japanese words the staff
// pages show. Role 'admin' holds them all; role 'staff' holds those granted to it (staff_permissions).
import { z } from 'zod';

export const ADMIN_PERMISSIONS = [
  'shipping:read',
  'shipping:write',
  'packs:write',
  'members:read',
  'members:write',
  'coins:grant',
  'orders:refund',
  'content:write',
  'audit:read',
  'staff:write',
  'orders:read',
  'inquiries:read',
  'inquiries:write',
  'shop:write',
  'signals:read',
  'reports:read',
  'promo:write',
  'mail:write',
  'farm:write',
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];

/** What each permission lets a staff member do, in the words of the staff page. */
export const PERMISSION_LABELS: Readonly<Record<AdminPermission, string>> = {
  'shipping:read': '発送依頼と配送先住所の閲覧（閲覧は監査ログに記録）',
  'shipping:write': '発送作業（準備中・発送済み・配達完了・返送・欠品対応）',
  'packs:write': 'ガチャ（パック）の作成・公開・終了とコインパックの設定',
  'members:read': '会員情報の閲覧',
  'members:write': '会員情報の変更',
  'coins:grant': 'コインの付与',
  'orders:refund': '注文の返金',
  'content:write': 'ページ・バナーの編集',
  'audit:read': '監査ログの閲覧',
  'staff:write': 'スタッフの招待・権限変更・解除',
  'orders:read': '注文・決済・審査待ちの閲覧',
  'inquiries:read': 'お問い合わせの閲覧',
  'inquiries:write': 'お問い合わせへの回答・担当・状態の変更',
  'shop:write': 'メンテナンスモードなどショップ全体の設定',
  'signals:read': '不正検知シグナルの閲覧（判断には会員情報の変更の権限も必要）',
  'reports:read': 'ダッシュボード（ガチャ・会員・パックの集計）の閲覧',
  'promo:write': '特典コードの発行・CSV出力・停止',
  'mail:write': 'メールボックスへのお知らせ・個別メールの送信・予約・取り消し（プレゼント付きを含む）',
  'farm:write': 'ファームの設定・種・一時停止',
};

export const adminPermissionSchema = z.enum(ADMIN_PERMISSIONS, { error: '不明な権限です。' });

/** @example isAdminPermission('shipping:write') // true */
export const isAdminPermission = (value: unknown): value is AdminPermission =>
  typeof value === 'string' && (ADMIN_PERMISSIONS as readonly string[]).includes(value);

/** The permissions a role holds, given the rows granted to a staff member. */
export function permissionsOfRole(role: string, granted: readonly string[]): ReadonlySet<AdminPermission> {
  if (role === 'admin') return new Set(ADMIN_PERMISSIONS);
  if (role !== 'staff') return new Set();
  return new Set(granted.filter(isAdminPermission));
}
