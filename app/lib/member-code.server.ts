// The member ID shown to members and support: derived from the account id, in an alphabet with no
// look-alikes (no 0/O, 1/I/L), so it can be read out on the phone or typed from a screenshot.
import { createHash } from 'node:crypto';

/** 31 characters: digits 2–9 and capitals without I, L and O. */
export const MEMBER_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 10;

/**
 * The member's display code, e.g. 'K7Q4M-9XZTR': 10 characters (about 49 bits) from a SHA-256 of
 * the id, so it is stable and says nothing about the id itself.
 * @example memberCode('u_8fJ2kLq0') // 'R4XN7-QK2MB' (always the same for one id)
 */
export function memberCode(memberId: string): string {
  let n = BigInt(`0x${createHash('sha256').update(`member-code:${memberId}`).digest('hex')}`);
  const base = BigInt(MEMBER_CODE_ALPHABET.length);
  let code = '';
  for (let i = 0; i < LENGTH; i++) {
    code += MEMBER_CODE_ALPHABET[Number(n % base)];
    n /= base;
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
