// A signal that never fires, for request contexts without a caller's signal.
//
// It is made on first use, as workerd allows no AbortController at load.
let never: AbortSignal | undefined;

/** The one signal that never fires. */
export const neverAborted = (): AbortSignal => (never ??= new AbortController().signal);
