#!/usr/bin/env node
// Checks the packages against the picture in ARCHITECTURE.md, whose table is tooling/architecture.json.
//
// It reads the table of allowed dependencies, each package.json, every import in each built dist/**/*.js, relative
// imports in src/ that escape their package, and the client's root entry for anything Node-only.
//
//   node tooling/scripts/check-architecture.mjs      (after a build; exits 1 and lists each violation)
//
// The built output is what users load, so that is what is read: a type-only import leaves no trace
// there, and a global like `Buffer` shows only as a use, never as an import.
import { builtinModules, createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ts = createRequire(import.meta.url)('typescript');

export const NODE_ONLY_GLOBALS = ['Buffer', 'process', '__dirname', '__filename', 'require'];
const BUILTINS = new Set(builtinModules);

/** The table: package name → { dependencies, optionalPeers }. */
export function readTable(path = join(root, 'tooling', 'architecture.json')) {
  const { packages } = JSON.parse(readFileSync(path, 'utf8'));
  return new Map(
    Object.entries(packages).map(([name, entry]) => [
      name,
      { ...entry, dependencies: entry.dependencies ?? [], optionalPeers: entry.optionalPeers ?? [] },
    ]),
  );
}

/**
 * The table as the text block ARCHITECTURE.md shows between its `arrows` markers (a test keeps the two
 * equal): `→` a dependency, `⇢` an optional peer loaded on demand.
 */
export function arrows(table = readTable()) {
  const width = Math.max(...[...table.keys()].map((name) => name.length)) + 2;
  return [...table]
    .flatMap(([name, { dependencies, optionalPeers }]) => [
      `${name.padEnd(width)}${dependencies.length === 0 ? '(depends on no other package)' : `→ ${dependencies.join(', ')}`}`,
      ...(optionalPeers.length === 0
        ? []
        : [`${''.padEnd(width)}⇢ ${optionalPeers.join(', ')} (optional peers, loaded by import() when used)`]),
    ])
    .join('\n');
}

/** The workspace packages under packages/, with their manifests. */
export function workspacePackages() {
  const dir = join(root, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .map((entry) => ({
      dir: join(dir, entry.name),
      manifest: JSON.parse(readFileSync(join(dir, entry.name, 'package.json'), 'utf8')),
    }));
}

const filesUnder = (dir, suffix) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) =>
        statSync(join(dir, f)).isDirectory()
          ? filesUnder(join(dir, f), suffix)
          : f.endsWith(suffix)
            ? [join(dir, f)]
            : [],
      )
    : [];

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isBuiltin = (specifier) =>
  specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(packageOf(specifier));

/**
 * The package a computed `import()` names in its `/* optional peer: NAME *\/` comment: a specifier kept from
 * bundlers on purpose (they must not resolve an optional peer), still checked like any other import.
 */
function namedPeer(source, call) {
  const [arg] = call.arguments;
  if (arg === undefined) return undefined;
  // The comments between `import(` and the argument.
  const between = source.text.slice(call.getStart(source), arg.getStart(source));
  return /\/\*\s*optional peer: (\S+?)\s*\*\//.exec(between)?.[1];
}

/**
 * Every module specifier in `code`: `import … from`, bare `import '…'`, `export … from` (static) and
 * `import('…')` with a literal (dynamic). Read through the TypeScript parser, so strings and comments
 * that merely look like imports do not count.
 */
export function specifiersOf(code, fileName = 'module.js') {
  const source = ts.createSourceFile(
    fileName,
    code,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, dynamic: false, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      const literal = arg !== undefined && ts.isStringLiteralLike(arg);
      const named = literal ? undefined : namedPeer(source, node);
      found.push({
        specifier: literal ? arg.text : (named ?? '<computed>'),
        dynamic: true,
        typeOnly: false,
        ...(named !== undefined && { named: true }),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Uses of Node-only globals in `code` (free references: not property names, not local bindings). */
export function nodeGlobalsOf(code, fileName = 'module.js') {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const declared = new Set();
  const uses = [];
  const visit = (node) => {
    if (ts.isIdentifier(node) && NODE_ONLY_GLOBALS.includes(node.text)) {
      const parent = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        ((ts.isPropertyAssignment(parent) ||
          ts.isMethodDeclaration(parent) ||
          ts.isPropertyDeclaration(parent) ||
          ts.isGetAccessor(parent) ||
          ts.isSetAccessor(parent)) &&
          parent.name === node) ||
        (ts.isBindingElement(parent) && parent.propertyName === node) ||
        ts.isImportSpecifier(parent) ||
        ts.isExportSpecifier(parent) ||
        ts.isLabeledStatement(parent);
      const isDeclaration =
        (ts.isVariableDeclaration(parent) ||
          ts.isParameter(parent) ||
          ts.isFunctionDeclaration(parent) ||
          ts.isClassDeclaration(parent) ||
          ts.isBindingElement(parent) ||
          ts.isImportClause(parent) ||
          ts.isNamespaceImport(parent)) &&
        parent.name === node;
      if (isDeclaration) declared.add(node.text);
      else if (!isName) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        uses.push({ name: node.text, line: line + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses.filter((use) => !declared.has(use.name));
}

/** Does `manifest`'s exports map offer `subpath` (`.` or `./x`)? Patterns (`./*`) match by prefix. */
function exportsSubpath(manifest, subpath) {
  const map = manifest.exports;
  if (map === undefined) return subpath === '.';
  if (typeof map === 'string' || !Object.keys(map).some((k) => k.startsWith('.'))) return subpath === '.';
  return Object.keys(map).some(
    (key) => key === subpath || (key.endsWith('/*') && subpath.startsWith(key.slice(0, -1))),
  );
}

/**
 * Everything in the workspace the table does not allow. Returns messages, one a violation; empty when
 * the packages match the picture. Needs the packages built (it reads dist/).
 */
export function checkArchitecture({ table = readTable(), packages = workspacePackages() } = {}) {
  const problems = [];
  const byName = new Map(packages.map((p) => [p.manifest.name, p]));
  for (const { dir, manifest } of packages) {
    const name = manifest.name;
    const entry = table.get(name);
    if (entry === undefined) {
      problems.push(
        `${name}: not in tooling/architecture.json — give it its place in the picture (and in ARCHITECTURE.md)`,
      );
      continue;
    }
    const workspace = (deps) =>
      Object.keys(deps ?? {})
        .filter((d) => d.startsWith('@mcpc/'))
        .sort();
    const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
    const declared = workspace(manifest.dependencies);
    if (!same(declared, [...entry.dependencies].sort())) {
      problems.push(
        `${name}: package.json dependencies on @mcpc packages are [${declared.join(', ')}], the picture draws [${[...entry.dependencies].sort().join(', ')}]`,
      );
    }
    const peers = workspace(manifest.peerDependencies);
    if (!same(peers, [...entry.optionalPeers].sort())) {
      problems.push(
        `${name}: package.json peerDependencies on @mcpc packages are [${peers.join(', ')}], the picture draws [${[...entry.optionalPeers].sort().join(', ')}]`,
      );
    }
    for (const peer of peers) {
      if (manifest.peerDependenciesMeta?.[peer]?.optional !== true)
        problems.push(`${name}: peer ${peer} is not marked optional`);
    }

    const thirdParty = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const dist = join(dir, 'dist');
    const built = filesUnder(dist, '.js');
    if (built.length === 0) problems.push(`${name}: no dist/**/*.js — build it first`);
    for (const file of built) {
      const where = relative(root, file);
      for (const { specifier, dynamic, named } of specifiersOf(readFileSync(file, 'utf8'), file)) {
        if (specifier === '<computed>') {
          problems.push(`${where}: import() of a computed specifier, which no check can follow`);
        } else if (specifier.startsWith('.')) {
          if (!resolve(dirname(file), specifier).startsWith(dist + sep))
            problems.push(`${where}: '${specifier}' reaches outside dist/`);
        } else if (specifier.startsWith('#')) {
          // A subpath import: the package's own module per runtime, which its "imports" map must name.
          const targets = manifest.imports?.[specifier];
          if (targets === undefined)
            problems.push(`${where}: imports '${specifier}', which ${name}'s package.json "imports" does not map`);
          else
            for (const target of Object.values(typeof targets === 'string' ? { default: targets } : targets))
              if (!existsSync(join(dir, target)))
                problems.push(`${name}: imports["${specifier}"] names ${target}, which the build did not make`);
        } else if (isBuiltin(specifier)) {
          // Node's built-ins: allowed here; the client's root entry is checked on its own below.
        } else if (specifier.startsWith('@mcpc/')) {
          const target = packageOf(specifier);
          const subpath = `.${specifier.slice(target.length)}`;
          if (entry.dependencies.includes(target)) {
            // An arrow of the picture.
          } else if (entry.optionalPeers.includes(target)) {
            if (!dynamic)
              problems.push(
                `${where}: imports the optional peer '${specifier}' statically; it may only be loaded on demand (import())`,
              );
          } else {
            problems.push(`${where}: imports '${specifier}', which the picture does not allow for ${name}`);
          }
          const other = byName.get(target);
          if (other !== undefined && !exportsSubpath(other.manifest, subpath))
            problems.push(`${where}: '${specifier}' is not a public entry point of ${target}`);
        } else if (named && manifest.peerDependenciesMeta?.[packageOf(specifier)]?.optional !== true) {
          problems.push(
            `${where}: import() names '${specifier}' an optional peer, which ${name}'s package.json does not`,
          );
        } else if (!thirdParty.has(packageOf(specifier))) {
          problems.push(`${where}: imports '${specifier}', which ${name}'s package.json does not declare`);
        }
      }
    }
    // Relative imports in the sources that leave the package (into a sibling's src/, say): the bundle
    // would inline the sibling's code, and the dist check above could not see it.
    for (const file of filesUnder(join(dir, 'src'), '.ts')) {
      for (const { specifier } of specifiersOf(readFileSync(file, 'utf8'), file)) {
        if (specifier.startsWith('.') && !resolve(dirname(file), specifier).startsWith(join(dir, 'src') + sep)) {
          problems.push(`${relative(root, file)}: '${specifier}' reaches outside ${name}'s src/`);
        }
      }
    }
  }
  return [...new Set(problems)];
}

/** The apps' part of the table: app name → { dir, owns, dependencies, reaches, parts }. */
export function readApps(path = join(root, 'tooling', 'architecture.json')) {
  const { apps = {} } = JSON.parse(readFileSync(path, 'utf8'));
  return new Map(
    Object.entries(apps).map(([name, app]) => [
      name,
      { ...app, dependencies: app.dependencies ?? [], parts: app.parts ?? {} },
    ]),
  );
}

/** The apps' arrows, drawn as the packages' are (a block of their own in ARCHITECTURE.md). */
export function appArrows(apps = readApps()) {
  const width = Math.max(...[...apps.keys()].map((name) => name.length)) + 2;
  return [...apps]
    .flatMap(([name, { dependencies, parts, reaches = [] }]) => [
      `${name.padEnd(width)}→ ${dependencies.join(', ')}`,
      ...reaches.map((r) => `${''.padEnd(width)}  and ${r}/ (the repository's own, not published)`),
      ...Object.entries(parts)
        .filter(([, part]) => part.nodeFree === true)
        .map(
          ([dir, part]) => `${''.padEnd(width)}  ${dir}/ (no Node: a page or a Worker) → only ${part.may.join(', ')}`,
        ),
    ])
    .join('\n');
}

/** Source files of an app (what its users run), not its tests, builds or installed modules. */
const appSources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'test', 'docs'].includes(entry.name) || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return appSources(path);
    return /\.(m?js|tsx?|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

/**
 * Everything in the apps the table does not allow: their package.json arrows, every @mcpc import (listed, and a
 * public entry), relative imports that leave the app, and in a part that runs in a browser (`nodeFree`) any
 * import but the ones it may make (a relative one within the part or the folders it `reads`, or one of `may`).
 */
export function checkApps({ apps = readApps(), packages = workspacePackages() } = {}) {
  const problems = [];
  const byName = new Map(packages.map((p) => [p.manifest.name, p]));
  for (const [name, app] of apps) {
    const dir = resolve(root, app.dir);
    const manifestPath = join(dir, 'package.json');
    if (!existsSync(manifestPath)) {
      problems.push(`${name}: no ${app.dir}/package.json`);
      continue;
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.name !== name) problems.push(`${app.dir}: its package.json names ${manifest.name}, the table ${name}`);
    const declared = Object.keys(manifest.dependencies ?? {})
      .filter((d) => d.startsWith('@mcpc/') && d !== '@mcpc/tsconfig')
      .sort();
    const drawn = [...app.dependencies].sort();
    if (declared.join() !== drawn.join())
      problems.push(
        `${name}: package.json dependencies on @mcpc packages are [${declared}], the picture draws [${drawn}]`,
      );
    const parts = Object.entries(app.parts).map(([part, rule]) => ({ ...rule, dir: join(dir, part) }));
    for (const file of appSources(dir)) {
      const where = relative(root, file);
      const part = parts.find((p) => file.startsWith(p.dir + sep));
      for (const { specifier } of specifiersOf(readFileSync(file, 'utf8'), file)) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          const allowed = (app.reaches ?? []).some((r) => target.startsWith(join(root, r) + sep));
          if (!target.startsWith(dir + sep) && !allowed)
            problems.push(`${where}: '${specifier}' reaches outside ${app.dir}`);
          else if (
            part?.nodeFree === true &&
            !target.startsWith(part.dir + sep) &&
            !(part.reads ?? []).some((r) => target.startsWith(join(dir, r) + sep))
          )
            problems.push(`${where}: '${specifier}' leaves the browser part for code it may not load`);
          continue;
        }
        if (part?.nodeFree === true && !part.may.includes(specifier))
          problems.push(
            `${where}: imports '${specifier}', which the browser part may not (it may: ${part.may.join(', ')})`,
          );
        if (!specifier.startsWith('@mcpc/')) continue;
        const target = packageOf(specifier);
        if (!app.dependencies.includes(target))
          problems.push(`${where}: imports '${specifier}', which the picture does not allow for ${name}`);
        const other = byName.get(target);
        if (other !== undefined && !exportsSubpath(other.manifest, `.${specifier.slice(target.length)}`))
          problems.push(`${where}: '${specifier}' is not a public entry point of ${target}`);
      }
    }
  }
  return problems;
}

/**
 * The files the client's root entry loads statically (following relative `import`/`export … from` in
 * dist), and in them every `node:` (or bare built-in) import and every use of a Node-only global — what
 * would stop `@mcpc/client` loading in a browser, a worker or Deno without Node compatibility. Dynamic
 * imports are not followed: they run only when the feature that needs them is used.
 */
export function nodeOnlyInEntry(entry = join(root, 'packages', 'client', 'dist', 'index.js')) {
  const seen = new Set();
  const found = [];
  const queue = [entry];
  while (queue.length > 0 && seen.size < 10_000) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const { specifier, dynamic, typeOnly } of specifiersOf(code, file)) {
      if (dynamic || typeOnly) continue;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (isBuiltin(specifier)) found.push(`${where}: imports '${specifier}'`);
    }
    for (const { name, line } of nodeGlobalsOf(code, file))
      found.push(`${where}:${line}: uses the Node-only global '${name}'`);
  }
  return { files: [...seen].map((f) => relative(root, f)), found };
}

/** The conditions a browser's or a Worker's bundler resolves a package's "imports" with. */
const WEB_CONDITIONS = ['browser', 'workerd', 'worker', 'default'];

/**
 * The same check on every module a package's "imports" map gives a browser or a Worker (its `browser`,
 * `workerd`, `worker` and `default` targets): what a web bundle of the HTTP path loads must be Node-free
 * too (tooling/runtimes/test/web.test.ts runs such bundles).
 */
export function nodeOnlyInWebTargets() {
  const found = [];
  for (const { dir, manifest } of workspacePackages()) {
    for (const targets of Object.values(manifest.imports ?? {})) {
      const map = typeof targets === 'string' ? { default: targets } : targets;
      for (const condition of WEB_CONDITIONS) {
        const target = map[condition];
        if (target === undefined || !existsSync(join(dir, target))) continue;
        found.push(...nodeOnlyInEntry(join(dir, target)).found);
      }
    }
  }
  return [...new Set(found)];
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--arrows') {
  console.log(arrows());
} else if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--app-arrows') {
  console.log(appArrows());
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = [...checkArchitecture(), ...checkApps(), ...nodeOnlyInEntry().found, ...nodeOnlyInWebTargets()];
  for (const problem of problems) console.error(`✖ ${problem}`);
  console.log(problems.length === 0 ? 'the packages match ARCHITECTURE.md' : `${problems.length} violations`);
  process.exit(problems.length === 0 ? 0 : 1);
}
