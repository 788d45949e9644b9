// Lists the names (values and types) each public entry of a built @mcpc package exports, read from its declarations.
//
// Usage: node tooling/scripts/api-names.mjs [package-dir …] [--names]   (default: every package under packages/)
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The `types` file of each entry of a package's `exports` map (conditions searched depth first). */
function entryDeclarations(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const typesOf = (target) => {
    if (typeof target === 'string') return target.endsWith('.d.ts') ? target : undefined;
    if (target === null || typeof target !== 'object') return undefined;
    if (typeof target.types === 'string') return target.types;
    for (const value of Object.values(target)) {
      const found = typesOf(value);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return Object.entries(manifest.exports ?? {})
    .filter(([key]) => key !== './package.json')
    .map(([key, target]) => ({
      entry: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      file: typesOf(target) && resolve(dir, typesOf(target)),
    }))
    .filter((e) => e.file !== undefined && existsSync(e.file));
}

/** Each entry's exported names, split into values (anything with a runtime binding) and types only. */
export function exportedNames(dir) {
  const entries = entryDeclarations(dir);
  const program = ts.createProgram(
    entries.map((e) => e.file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true },
  );
  const checker = program.getTypeChecker();
  return entries.map(({ entry, file }) => {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    const values = [];
    const types = [];
    for (const exported of symbol ? checker.getExportsOfModule(symbol) : []) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      (target.flags & ts.SymbolFlags.Value ? values : types).push(exported.name);
    }
    return { entry, values: values.sort(), types: types.sort() };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const showNames = args.includes('--names');
  const dirs = args.filter((a) => !a.startsWith('--'));
  const packages =
    dirs.length > 0
      ? dirs.map((d) => resolve(d))
      : readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p));
  for (const dir of packages) {
    if (!existsSync(join(dir, 'package.json'))) continue;
    for (const { entry, values, types } of exportedNames(dir)) {
      console.log(`${entry}: ${values.length + types.length} names (${values.length} values, ${types.length} types)`);
      if (showNames) console.log(`  values: ${values.join(', ')}\n  types: ${types.join(', ')}`);
    }
  }
}
