// The catalogue's own names and nouns, as words: what a spell check of generated text must accept
// because the catalogue chose them (scenario and skill names, nouns, column names, categories and
// record texts). Prose the catalogue writes (formats, questions) is deliberately not included, so a
// misspelling there still fails the check.
import { SCENARIOS } from './scenarios/index.ts';
import { SKILLS } from './skills/index.ts';

function words(text: string): string[] {
  return text.split(/[^\p{L}']+/u).filter((w) => w.length > 0);
}

export function catalogueVocabulary(): string[] {
  const names = [
    ...SCENARIOS.flatMap((s) => [s.name, s.title, ...Object.values(s.nouns), ...Object.values(s.columns), ...s.categories, ...s.texts]),
    ...SKILLS.flatMap((k) => [k.name, k.title]),
  ];
  return [...new Set(names.flatMap(words))].sort();
}
