#!/usr/bin/env node
// Reads the error taxonomy off the built packages: every error class their `exports` entries expose, and its traits.
//
// For each: its brand, the code an instance carries, whether `cause` is kept and whether `instanceof` holds against a
// second copy of the package. Prints JSON; tooling/scripts/test/errors.test.ts asserts on it. Run after a build
// (`npx -y pnpm@10.34.8 build`).
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BRAND = Symbol.for('@mcpc/error.brand');
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Whether a value is a class whose prototype chain reaches `Error`. */
const isErrorClass = (value) => typeof value === 'function' && value.prototype instanceof Error;

/** An argument that answers every property read and call with itself and prints as 'x'. */
function anything() {
  const proxy = new Proxy(function () {}, {
    get: (_target, key) =>
      key === Symbol.toPrimitive ? () => 'x' : key === 'then' ? undefined : key === Symbol.iterator ? [][key] : proxy,
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

// Argument vectors tried in turn until one constructs an instance whose `code` is a string: the
// constructors take many shapes, and no per-class list is kept (it would go stale as the list did).
// The shortest first: an argument left out takes its default, and the default code is the class's own.
const VECTORS = [
  ...Array.from({ length: 7 }, (_, n) => Array.from({ length: n }, () => 'x')),
  [1, 'x', 'x', 'x', 'x', 'x'],
  ['x', 1, 1, 'x', 'x', 'x'],
  Array.from({ length: 6 }, anything),
];

/** A code, not an argument that found its way into `code`. */
const CODE = /^[A-Z][A-Z0-9_]*$/;

function construct(cls, args) {
  try {
    const instance = Reflect.construct(cls, args);
    return typeof instance.code === 'string' && CODE.test(instance.code) ? instance : undefined;
  } catch {
    return undefined;
  }
}

function sample(cls) {
  for (const args of VECTORS) {
    const instance = construct(cls, args);
    if (instance !== undefined) return { instance, args };
  }
  return undefined;
}

/** Whether some argument position, given `{ cause }` or the cause itself, yields an instance that keeps it. */
function keepsCause(cls, args) {
  const marker = new Error('the cause');
  for (let i = 0; i < Math.max(args.length, 6); i++) {
    // `{ error }`: a class that records what the server answered as its cause (ResourceNotFoundError).
    for (const given of [{ cause: marker }, marker, { error: marker }]) {
      const tried = [...args];
      while (tried.length <= i) tried.push(undefined);
      tried[i] = given;
      try {
        const { cause } = Reflect.construct(cls, tried);
        // The cause itself, or a copy of it with its message made safe to print (ToolSchemaError's).
        if (
          cause === marker ||
          (cause instanceof Error &&
            Object.getPrototypeOf(cause) === Error.prototype &&
            cause.message === marker.message)
        )
          return true;
      } catch {
        // This position does not take it; try the next.
      }
    }
  }
  return false;
}

/** A second copy of a package's dist, as a duplicate install would load it: same dependencies, own modules. */
function copyOf(dir) {
  const copy = mkdtempSync(join(tmpdir(), 'mcpc-errors-copy-'));
  cpSync(join(dir, 'dist'), join(copy, 'dist'), { recursive: true });
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ type: 'module' }));
  if (existsSync(join(dir, 'node_modules'))) symlinkSync(join(dir, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

export async function errorTaxonomy() {
  const packages = readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
  const classes = [];
  const codeSets = [];
  const copies = [];
  try {
    for (const { dir, manifest } of packages) {
      const copy = copyOf(dir);
      copies.push(copy);
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        if (subpath === './package.json') continue;
        const file = typeof target === 'string' ? target : target.default;
        const entry = `${manifest.name}${subpath.slice(1)}`;
        const here = await import(pathToFileURL(join(dir, file)).href);
        const there = await import(pathToFileURL(join(copy, file)).href);
        for (const [name, value] of Object.entries(here)) {
          if (/^\w+ErrorCode$/.test(name) && typeof value === 'object' && value !== null) {
            codeSets.push({ entry, name, object: value, values: Object.values(value), frozen: Object.isFrozen(value) });
            continue;
          }
          if (!isErrorClass(value)) continue;
          const brand = Object.hasOwn(value, BRAND) ? Symbol.keyFor(value[BRAND]) : undefined;
          const made = sample(value);
          const other = there[name];
          const otherMade = isErrorClass(other) && made !== undefined ? construct(other, made.args) : undefined;
          classes.push({
            entry,
            name,
            cls: value,
            brand,
            code: made?.instance.code,
            constructs: made !== undefined,
            // Whether the constructor deals with a cause at all (a class without one inherits its parent's).
            mentionsCause: /\bcause\b/.test(Function.prototype.toString.call(value)),
            keepsCause: made === undefined ? false : keepsCause(value, made.args),
            distinctCopy: other !== value,
            crossCopy:
              otherMade === undefined
                ? undefined
                : otherMade instanceof value && made.instance instanceof other && otherMade instanceof Error,
            instance: made?.instance,
          });
        }
      }
    }
  } finally {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  }
  return { packages: packages.map((p) => p.manifest.name), classes, codeSets };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { packages, classes, codeSets } = await errorTaxonomy();
  // The classes and code objects by what they are, not by identity: a re-export is the same object.
  const ids = new Map();
  const idOf = (object) => ids.get(object) ?? ids.set(object, ids.size).get(object);
  console.log(
    JSON.stringify({
      packages,
      classes: classes.map(({ cls, instance: _instance, ...facts }) => ({ ...facts, id: idOf(cls) })),
      codeSets: codeSets.map(({ object, ...facts }) => ({ ...facts, id: idOf(object) })),
    }),
  );
}
