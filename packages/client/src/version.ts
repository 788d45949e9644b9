// The package version the client reports as its `clientInfo` when the host gives none.
export const VERSION = '0.1.0';
