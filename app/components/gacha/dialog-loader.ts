// The draw sheet's module, apart from the pack page's first script (bench/budgets/pages.json). The server
// renders the sheet at once: entry.server provides its component here. The browser loads it after hydration
// (DrawPanel asks for it at once), or before hydrating a page whose address opens the sheet (?confirm=N,
// entry.client), so that page's first render is the server's HTML.
import { createContext, type ComponentType } from 'react';
import type { ConfirmDialogProps } from './ConfirmDialog';

export const ServerConfirmDialog = createContext<ComponentType<ConfirmDialogProps> | null>(null);

let loaded: ComponentType<ConfirmDialogProps> | null = null;

/** The sheet's component once its script has arrived in the browser, else null. */
export const loadedConfirmDialog = () => loaded;

/** Loads the sheet's script once. @example await loadConfirmDialog() */
export const loadConfirmDialog = () => import('./ConfirmDialog').then((module) => (loaded = module.ConfirmDialog));
