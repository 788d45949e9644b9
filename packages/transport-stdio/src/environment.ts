// The environment a server process gets: the inherited variable names per platform, merged with the caller's.
/**
 * The variables a server inherits from this process by default. Everything else (tokens, cloud
 * credentials, whatever the host happens to hold) stays out unless the caller passes it in `env`.
 */
const INHERITED_POSIX = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR'] as const;
const INHERITED_WINDOWS = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
] as const;

export interface EnvironmentOptions {
  /** Defaults to `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Where the values come from; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The names {@link defaultEnvironment} copies on a platform. */
export function inheritedVariableNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'win32' ? INHERITED_WINDOWS : INHERITED_POSIX;
}

/**
 * The environment a server starts with before the caller's `env` is applied: a short allow-list of
 * variables copied from this process. Values starting with `()` are skipped: they are exported shell
 * functions, a vector for code injection (Shellshock) and never what a server needs.
 */
export function defaultEnvironment(options: EnvironmentOptions = {}): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const source = options.env ?? process.env;
  const result: Record<string, string> = {};
  for (const name of inheritedVariableNames(platform)) {
    const value = platform === 'win32' ? readVariable(source, name) : source[name];
    if (value === undefined || value.startsWith('()')) continue;
    result[name] = value;
  }
  return result;
}

/**
 * `base` with `overrides` on top. Windows variable names are case-insensitive, so there an override
 * `Path` replaces an inherited `PATH` instead of the child getting both and picking one at random.
 */
export function mergeEnvironment(
  base: Readonly<Record<string, string>>,
  overrides: Readonly<Record<string, string>> | undefined,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  if (overrides === undefined) return { ...base };
  if (platform !== 'win32') return { ...base, ...overrides };
  const replaced = new Set(Object.keys(overrides).map((name) => name.toUpperCase()));
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (!replaced.has(name.toUpperCase())) result[name] = value;
  return Object.assign(result, overrides);
}

/** A variable read the way Windows reads it: by name, ignoring case. */
export function readVariable(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const exact = env[name];
  if (exact !== undefined) return exact;
  const upper = name.toUpperCase();
  for (const key of Object.keys(env)) if (key.toUpperCase() === upper) return env[key];
  return undefined;
}
