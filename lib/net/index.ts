// HTTP at the edge: client addresses, origins, body limits and security headers.
// The public API of lib/net: other modules import it from here, never from its files (README, Layers).
export { COMMON_SECURITY_HEADERS, NON_PAGE_CONTENT_SECURITY_POLICY, pageContentSecurityPolicy } from './security-headers.ts';
export { CLIENT_ADDRESS_HEADER } from './client-address-header.ts';
export { originAllowed, type ServedOrigins, servedOrigins } from './origins.ts';
export {
  actionRefusal,
  connectionCapKey,
  CONNECTIONS_CHECK_INTERVAL_MS,
  DEFAULT_SECURITY_HEADERS,
  edgeResponseHeaders,
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS_PER_ADDRESS,
  rawResponse,
  refusal,
  REQUEST_TIMEOUT_MS,
  trustworthyHeaders,
  type EdgeChecks,
} from './edge.ts';
