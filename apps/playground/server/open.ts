// Opening a URL in the person's browser (xdg-open, open, start), only where there is a display.
import { spawn } from 'node:child_process';

/** Whether a browser could be shown here. */
export function canOpen(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/** Opens `url`; failures are ignored (the URL is printed anyway). */
export function openUrl(url: string): void {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener: the printed URL is enough
  }
}
