// URI handling after RFC 3986 §5 (reference resolution), written out rather than taken from WHATWG `URL`.
//
// `URL` cannot resolve a relative reference against a URN base (`urn:example:a` + `b.json` throws) and normalises
// hosts, ports and percent-escapes in ways schema authors do not expect, so two spellings of one `$id` could stop
// matching. Nothing here touches the network.

interface Parts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

const URI_RE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parse(uri: string): Parts {
  const m = URI_RE.exec(uri);
  // The expression matches every string (each part is optional), so `m` is never null.
  return { scheme: m?.[1], authority: m?.[2], path: m?.[3] ?? '', query: m?.[4], fragment: m?.[5] };
}

function removeDotSegments(path: string): string {
  const out: string[] = [];
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    if (s === '.' || s === '..') {
      if (s === '..' && out.length > 1) out.pop();
      // A trailing "." or ".." still denotes a directory.
      if (i === segments.length - 1) out.push('');
    } else {
      out.push(s);
    }
  }
  return out.join('/');
}

function merge(base: Parts, refPath: string): string {
  if (base.authority !== undefined && base.path === '') return '/' + refPath;
  const slash = base.path.lastIndexOf('/');
  return slash === -1 ? refPath : base.path.slice(0, slash + 1) + refPath;
}

function format(p: Parts): string {
  let s = '';
  if (p.scheme !== undefined) s += p.scheme + ':';
  if (p.authority !== undefined) s += '//' + p.authority;
  s += p.path;
  if (p.query !== undefined) s += '?' + p.query;
  if (p.fragment !== undefined) s += '#' + p.fragment;
  return s;
}

/** Resolves `ref` against the absolute `base` (RFC 3986 §5.2.2). */
export function resolveUri(ref: string, base: string): string {
  const r = parse(ref);
  if (r.scheme !== undefined) return format({ ...r, scheme: r.scheme.toLowerCase(), path: removeDotSegments(r.path) });
  const b = parse(base);
  const t: Parts = { scheme: b.scheme, authority: b.authority, path: b.path, query: b.query, fragment: r.fragment };
  if (r.authority !== undefined) {
    t.authority = r.authority;
    t.path = removeDotSegments(r.path);
    t.query = r.query;
  } else if (r.path === '') {
    if (r.query !== undefined) t.query = r.query;
  } else {
    t.path = removeDotSegments(r.path.startsWith('/') ? r.path : merge(b, r.path));
    t.query = r.query;
  }
  return format(t);
}

/** Splits a URI at its fragment. An empty fragment (`…#`) is the same resource as none. */
export function splitFragment(uri: string): { base: string; fragment: string } {
  const hash = uri.indexOf('#');
  if (hash === -1) return { base: uri, fragment: '' };
  return { base: uri.slice(0, hash), fragment: uri.slice(hash + 1) };
}

/** True when `uri` has a scheme: the form a resource identifier must take once resolved. */
export const isAbsolute = (uri: string): boolean => parse(uri).scheme !== undefined;

/** Decodes a URI fragment that holds a JSON Pointer into its reference tokens (RFC 6901 §3, §6). */
export function pointerTokens(fragment: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === '') return [];
  if (!decoded.startsWith('/')) return undefined;
  return decoded
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Encodes one reference token of a JSON Pointer (RFC 6901 §3). */
export const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');
