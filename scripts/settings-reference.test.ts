// The settings reference cannot drift: docs/settings.md is exactly what the declarations write.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import { settingsReference, SETTINGS_REFERENCE_FILE } from './settings-reference';
import { SETTINGS } from '#server/config';

describe('docs/settings.md', () => {
  it('is what `npm run docs:settings` writes from the settings declarations', () => {
    const written = fs.readFileSync(SETTINGS_REFERENCE_FILE, 'utf8');
    // On a difference: run `npm run docs:settings` and commit docs/settings.md with the declaration's change.
    expect(written, 'docs/settings.md is out of date: run `npm run docs:settings`').toBe(settingsReference());
  });

  it('names every setting once, with its words', () => {
    const reference = settingsReference();
    for (const declaration of SETTINGS)
      for (const name of Object.keys(declaration.shape))
        expect(reference.split(`| \`${name}\` |`).length - 1, name).toBe(1);
  });
});
