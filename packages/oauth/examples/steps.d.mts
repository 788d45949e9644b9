// Types for steps.mjs, so the TypeScript test that runs it can import it.
export function walkOAuthSteps(
  serverUrl: string,
  options?: { openUrl?: (url: URL, signal: AbortSignal) => void | Promise<void> },
): Promise<void>;
