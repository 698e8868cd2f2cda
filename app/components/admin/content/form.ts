// Shared bits of the content editor's forms: the label style and the image upload.
import type { contentEditorLoader } from '~/controllers/admin-content.server';

/** What the editor's loader gives the page. */
export type EditorPage = Awaited<ReturnType<typeof contentEditorLoader>>;

export const label = 'text-xs font-bold';

export async function uploadImage(
  file: File,
): Promise<{ url: string; width: number; height: number } | { error: string }> {
  const body = new FormData();
  body.set('image', file);
  try {
    const response = await fetch('/admin/content/images', { method: 'POST', body });
    const json = (await response.json()) as { url: string; width: number; height: number } | { error: string };
    return response.ok || 'error' in json ? json : { error: '画像をアップロードできませんでした。' };
  } catch {
    return { error: '画像をアップロードできませんでした。通信を確認してください。' };
  }
}
