// The package's entry: the TCP transport and its server config for @mcpc/client.

export { TcpTransport, type TcpTransportOptions } from './tcp-transport.js';
export { tcp, type TcpServerOptions } from './config.js';
