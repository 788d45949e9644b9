// What the host tells a View about itself: its info, capabilities, theme, styles and container (`hostContext`).
import type { ToolView } from '../api.js';
import type { JsonObject } from './bridge.js';

export const HOST_INFO = { name: 'mcpc-playground', version: '0.0.0' };
/** The tallest a View may grow (its `size-changed` height is clamped to it). */
export const MAX_HEIGHT = 800;

const HOST_STYLES = {
  variables: {
    '--color-background-primary': 'light-dark(#ffffff, #1b1b1f)',
    '--color-background-secondary': 'light-dark(#f4f4f6, #24242a)',
    '--color-text-primary': 'light-dark(#1b1b1f, #ececf1)',
    '--color-text-secondary': 'light-dark(#55555f, #a9a9b5)',
    '--color-border-primary': 'light-dark(#d0d0d7, #3a3a44)',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", sans-serif',
    '--font-mono': 'ui-monospace, "SFMono-Regular", Menlo, monospace',
    '--border-radius-md': '6px',
  },
};

export function currentTheme(): 'light' | 'dark' {
  const t = document.documentElement.dataset.theme;
  if (t === 'dark' || t === 'light') return t;
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** What the host offers the View: every request it answers, and the sandbox it was given (`csp`: the approved domains). */
export function hostCapabilities(csp: JsonObject): JsonObject {
  return {
    openLinks: {},
    downloadFile: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    message: { text: {} },
    updateModelContext: { text: {}, structuredContent: {} },
    sandbox: { permissions: {}, csp },
  };
}

/** The `hostContext` a View gets at `ui/initialize`: `width` is the panel's (0 when not laid out yet). */
export function hostContext(width: number, tool: ToolView | undefined): JsonObject {
  const ctx: JsonObject = {
    theme: currentTheme(),
    styles: HOST_STYLES,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    // Width is fixed by the page's layout; height follows the View (size-changed) up to MAX_HEIGHT.
    containerDimensions: width > 0 ? { width, maxHeight: MAX_HEIGHT } : { maxHeight: MAX_HEIGHT },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: `${HOST_INFO.name}/${HOST_INFO.version}`,
    platform: 'web',
    deviceCapabilities: {
      touch: typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches,
      hover: typeof matchMedia === 'function' && matchMedia('(hover: hover)').matches,
    },
  };
  if (tool) ctx.toolInfo = { tool };
  return ctx;
}
