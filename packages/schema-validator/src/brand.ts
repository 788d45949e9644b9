// The brander of @mcpc/schema-validator's error classes: the kernel's `brandFor`, scoped to this package.
import { brandFor } from '@mcpc/jsonrpc';

export const brand = brandFor('@mcpc/schema-validator');
