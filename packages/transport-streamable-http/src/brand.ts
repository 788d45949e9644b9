// The brander of @mcpc/transport-streamable-http's error classes: the kernel's `brandFor`, scoped to this package.
import { brandFor } from '@mcpc/jsonrpc';

export const brand = brandFor('@mcpc/transport-streamable-http');
