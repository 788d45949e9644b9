// Scope strings and lists (RFC 6749 §3.3): parsing, union, serializing.
/** Scope tokens of a space-separated `scope` string, or of a list; empty and repeated tokens dropped. */
export function scopeList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const tokens = typeof value === 'string' ? value.split(/\s+/) : value.flatMap((v) => v.split(/\s+/));
  // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ); anything else is not a scope.
  return [...new Set(tokens.filter((t) => t !== '' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(t)))];
}

/** The union of several scope sets, in first-seen order. */
export function scopeUnion(...sets: ReadonlyArray<string | readonly string[] | undefined>): string[] {
  const out = new Set<string>();
  for (const s of sets) for (const t of scopeList(s)) out.add(t);
  return [...out];
}

export const scopeString = (scopes: readonly string[]): string | undefined =>
  scopes.length === 0 ? undefined : scopes.join(' ');
