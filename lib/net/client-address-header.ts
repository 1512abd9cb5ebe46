// The request header that carries the client address Envolve's web server resolved from the
// socket and the trusted proxies (lib/net/client-address.ts). The server removes any copy a
// client sent before setting it, so code behind the server may believe it.
export const CLIENT_ADDRESS_HEADER = 'x-envolve-client-address';
