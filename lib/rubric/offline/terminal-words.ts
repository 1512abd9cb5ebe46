// Words that generated text legitimately uses but the (US) English dictionary lacks, accepted by
// the spelling check beside it and the catalogue's own names. Keep it short and real: each entry is
// a tool, a term or a British spelling Envolve writes, never a misspelling let through.
export const TERMINAL_WORDS: readonly string[] = [
  // tools and terms of the terminal
  'awk',
  'bc',
  'checksum',
  'checksums',
  'durations',
  'gzip',
  'jq',
  'liveness',
  'sed',
  'semver',
  'sqlite',
  'whitespace',
  // Envolve's name, and the British spellings its text is written in
  'Envolve',
  'normalise',
  'normalised',
  'synthesiser',
];
