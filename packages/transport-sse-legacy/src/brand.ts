// The brander of @mcpc/transport-sse-legacy's error classes: the kernel's `brandFor`, scoped to this package.
import { brandFor } from '@mcpc/jsonrpc';

export const brand = brandFor('@mcpc/transport-sse-legacy');
