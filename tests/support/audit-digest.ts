// The digest the audit log keeps of staff's free text (decision 053), computed here on its own (node's
// sha256 of the UTF-8 text, length in code points) so tests check the log against the text itself.
import { createHash } from 'node:crypto';

/**
 * The `{ textSha256, textLength }` an audit entry must hold for `text`.
 * @example expect(entry.after).toMatchObject({ reply: digestOf('ご連絡ありがとうございます。') })
 */
export function digestOf(text: string): { textSha256: string; textLength: number } {
  return {
    textSha256: createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'),
    textLength: Array.from(text).length,
  };
}
