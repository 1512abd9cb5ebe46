// The structured logger.
// The public API of lib/log: other modules import it from here, never from its files (README, Layers).
export { logger, type LogFields, type Logger } from './logger.ts';
