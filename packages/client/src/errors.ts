// The errors @mcpc/client raises itself, one module per kind of failure (see errors/).
export * from './errors/call.js';
export * from './errors/connection.js';
export * from './errors/input.js';
export * from './errors/lookup.js';
export * from './errors/subscription.js';
