// MCP Apps sandbox policy: a resource's declared CSP domains, filtered, as a default-deny policy in the View's HTML.

/** `_meta.ui.csp` of an MCP App resource (SEP-1865 McpUiResourceCsp). */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

export interface CspBuild {
  /** The domains the host approved (what it reports in `hostCapabilities.sandbox.csp`). */
  approved: AppCsp;
  /** Declared entries that were not valid host sources and were dropped. */
  rejected: string[];
  /** The policy text put in the View's `<meta http-equiv="Content-Security-Policy">`. */
  policy: string;
}

const KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const MAX_PER_LIST = 32;
const MAX_SOURCE_LENGTH = 256;

/**
 * A CSP host-source with an explicit scheme and a host (optionally `*.` wildcard subdomains, a port and a path).
 * Bare `*`, scheme-only sources, keywords (`'unsafe-eval'`) and anything with `;`, `,`, quotes or whitespace are
 * refused, so a server cannot widen or inject directives.
 */
const HOST_SOURCE =
  /^(?:https?|wss?):\/\/(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*(?::(?:\d{1,5}|\*))?(?:\/[A-Za-z0-9._~!$&()*+=:@%/-]*)?$/i;

/** Keep the declared domains that are well-formed host sources; report the rest. */
export function filterCsp(declared: unknown): { approved: AppCsp; rejected: string[] } {
  const approved: AppCsp = {};
  const rejected: string[] = [];
  if (!declared || typeof declared !== 'object') return { approved, rejected };
  for (const key of KEYS) {
    const list = (declared as Record<string, unknown>)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      rejected.push(`${key}: not an array`);
      continue;
    }
    const ok: string[] = [];
    for (const entry of list.slice(0, MAX_PER_LIST)) {
      if (typeof entry === 'string' && entry.length <= MAX_SOURCE_LENGTH && HOST_SOURCE.test(entry)) {
        if (!ok.includes(entry)) ok.push(entry);
      } else {
        rejected.push(`${key}: ${typeof entry === 'string' ? entry.slice(0, 80) : typeof entry}`);
      }
    }
    if (list.length > MAX_PER_LIST) rejected.push(`${key}: ${list.length - MAX_PER_LIST} entries over the limit`);
    if (ok.length > 0) approved[key] = ok;
  }
  return { approved, rejected };
}

/**
 * The policy of the spec's "CSP Construction from Metadata", made stricter where the spec allows ("Host MAY further
 * restrict"): no `'self'` anywhere (the View has an opaque origin and no server of its own, and `'self'` would
 * otherwise point at the playground itself), `connect-src 'none'` unless domains are declared, `base-uri 'none'`
 * unless declared, `form-action 'none'`, `object-src 'none'`.
 */
export function buildCsp(declared: unknown): CspBuild {
  const { approved, rejected } = filterCsp(declared);
  const res = (approved.resourceDomains ?? []).join(' ');
  const list = (base: string, extra: string | undefined): string => [base, extra].filter((s) => !!s).join(' ');
  const orNone = (v: string[] | undefined): string => (v && v.length > 0 ? v.join(' ') : "'none'");
  const directives = [
    "default-src 'none'",
    `script-src ${list("'unsafe-inline'", res)}`,
    `style-src ${list("'unsafe-inline'", res)}`,
    `img-src ${list('data:', res)}`,
    `font-src ${list('data:', res)}`,
    `media-src ${list('data:', res)}`,
    `connect-src ${orNone(approved.connectDomains)}`,
    `frame-src ${orNone(approved.frameDomains)}`,
    "object-src 'none'",
    `base-uri ${orNone(approved.baseUriDomains)}`,
    "form-action 'none'",
  ];
  return { approved, rejected, policy: directives.join('; ') };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The policy as the first bytes of the document, ahead of anything of the View's: a doctype of our own (so the
 * View's own doctype, BOM, comments or whitespace after it cannot put the document in quirks mode or move the
 * policy) and the `<meta>`, which the parser puts in the implicit head before any markup or script of the View's.
 * A policy the View declares itself can only add restrictions. (Looking for the end of a leading comment instead
 * was wrong: `<!-->` is a whole comment to the browser, so the policy landed in the body, where it does nothing.)
 * This is the second line of defence: the sandbox proxy serves the same policy as a header, which the View's
 * srcdoc frame inherits.
 */
export function injectCsp(html: string, policy: string): string {
  return `<!doctype html><meta http-equiv="Content-Security-Policy" content="${escapeAttr(policy)}">${html}`;
}
