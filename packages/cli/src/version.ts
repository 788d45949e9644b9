// The version `mcpc --version` prints and the clientInfo it sends (checked against package.json by a test).
export const VERSION = '0.1.0';
