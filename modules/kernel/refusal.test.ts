// The refusal shape: refuse builds it, isRefusal recognises it (and nothing else), RefusalError carries it.
import { describe, expect, it } from 'vitest';
import { isRefusal, refuse, RefusalError } from './refusal';

describe('refusal', () => {
  it('is built with empty details by default and recognised', () => {
    expect(refuse('SOLD_OUT')).toEqual({ ok: false, code: 'SOLD_OUT', details: {} });
    expect(isRefusal(refuse('NOT_ENOUGH_LOTS', { remaining: 2 }))).toBe(true);
    expect(isRefusal({ ...refuse('DRAW_BUSY'), stored: false })).toBe(true);
  });

  it('is not confused with an answer, a status body or an error', () => {
    for (const value of [
      null,
      undefined,
      'SOLD_OUT',
      { ok: true },
      { ok: false, code: 'X' },
      { status: 404, body: {} },
      { ok: false, code: 'lower', details: {} },
      new Error('x'),
    ]) {
      expect(isRefusal(value), JSON.stringify(value)).toBe(false);
    }
  });

  it('travels in a RefusalError when it must unwind a transaction', () => {
    const error = new RefusalError(refuse('GACHA_NOT_FOUND', { gachaId: 'p-1' }));
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('GACHA_NOT_FOUND');
    expect(error.refusal).toEqual({ ok: false, code: 'GACHA_NOT_FOUND', details: { gachaId: 'p-1' } });
  });
});
