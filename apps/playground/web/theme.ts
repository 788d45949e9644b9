// The page's colour theme: the system's or the one the user chose (kept in localStorage), as <html data-theme>.
export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
/** Fired on window when the theme shown changes (an MCP App is told through host-context-changed). */
export const THEME_EVENT = 'playground-theme';

const KEY = 'mcpc-playground-theme';
const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
let choice: ThemeChoice = 'system';

export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Shows the chosen theme (the system's for 'system', following it as it changes) and remembers the choice. */
export function applyTheme(next: ThemeChoice): void {
  choice = next;
  try {
    if (next === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
  } catch {
    /* storage may be off: the choice lasts for this page */
  }
  show();
}

function show(): void {
  const resolved = choice === 'system' ? (query?.matches ? 'dark' : 'light') : choice;
  const root = document.documentElement;
  if (root.dataset.theme === resolved) return;
  root.dataset.theme = resolved;
  window.dispatchEvent(new Event(THEME_EVENT));
}

query?.addEventListener('change', () => {
  if (choice === 'system') show();
});
