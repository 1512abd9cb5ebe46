// Text rules shared by every input (browser-safe as a whole).
// The public API of lib/text: other modules import it from here, never from its files (README, Layers).
export { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters } from './control-characters.ts';
