// Types for nspell (a Hunspell-compatible spell checker in JavaScript), which ships none: only what
// the spelling check uses.
declare module 'nspell' {
  interface Dictionary {
    aff: Uint8Array | string;
    dic?: Uint8Array | string;
  }
  interface NSpell {
    correct(word: string): boolean;
    suggest(word: string): string[];
    add(word: string): NSpell;
    personal(dic: string): NSpell;
  }
  export default function nspell(dictionary: Dictionary): NSpell;
}
