// Brands the error classes of @mcpc/cli for McpError's `instanceof` across copies, scoped to this package.

type Constructor = abstract new (...args: never[]) => Error;

/** The key McpError reads a class's brand from; `Symbol.for`, so every copy of every @mcpc package agrees. */
const BRAND = Symbol.for('@mcpc/error.brand');

/** Brands an error class as `Symbol.for('@mcpc/cli.<name>')`, from its `static {}` block. */
export function brand(cls: Constructor, name: string): void {
  Object.defineProperty(cls, BRAND, { value: Symbol.for(`@mcpc/cli.${name}`) });
}
