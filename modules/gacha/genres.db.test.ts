// A genre's visibility window (docs/decisions/031): the tab and its address exist only while shown
// and inside the window (compared when read); the form reads the window in Japan time.
import { describe, it, expect } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { genreFormSchema, listAllGenres, listGenres, resolveGenre, saveGenre } from './index';

const handle = useTestDatabase('genres-window');

const jst = (hours: number) => new Date(Date.now() + hours * 3600_000 + 9 * 3600_000).toISOString().slice(0, 16);
const form = (window: { startsAt?: string; endsAt?: string }, visible = true) =>
  genreFormSchema.parse({
    id: 'winter',
    name: '冬',
    aliases: 'old-winter',
    sortOrder: '5',
    ...(visible ? { visible: 'on' } : {}),
    ...window,
  });

describe('a genre with a visibility window', () => {
  it('is listed and resolved only inside its window, and never while hidden', async () => {
    const db = handle.db;
    const shown = async () => ({
      listed: (await listGenres(db)).some((g) => g.id === 'winter'),
      resolved: await resolveGenre(db, 'old-winter'),
    });
    await saveGenre(db, form({ startsAt: jst(1) }));
    expect(await shown()).toEqual({ listed: false, resolved: null });
    await saveGenre(db, form({ startsAt: jst(-1), endsAt: jst(1) }));
    expect(await shown()).toEqual({ listed: true, resolved: 'winter' });
    await saveGenre(db, form({ endsAt: jst(-1) }));
    expect(await shown()).toEqual({ listed: false, resolved: null });
    await saveGenre(db, form({ startsAt: jst(-1), endsAt: jst(1) }, false));
    expect(await shown()).toEqual({ listed: false, resolved: null });
    await saveGenre(db, form({}));
    expect(await shown()).toEqual({ listed: true, resolved: 'winter' });
    const stored = (await listAllGenres(db)).find((g) => g.id === 'winter');
    expect(stored).toMatchObject({ startsAt: null, endsAt: null });
  });

  it('reads the window in Japan time and refuses an end before the start', () => {
    expect(form({ startsAt: '2027-01-05T15:00' }).startsAt?.toISOString()).toBe('2027-01-05T06:00:00.000Z');
    const backwards = genreFormSchema.safeParse({
      id: 'winter',
      name: '冬',
      sortOrder: '0',
      startsAt: '2027-01-05T15:00',
      endsAt: '2027-01-05T15:00',
    });
    expect(backwards.success ? null : backwards.error.issues[0]?.message).toBe(
      '終了日時は開始日時より後にしてください。',
    );
  });
});
