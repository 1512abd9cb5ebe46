// Regenerates the worked example of docs/method.md §2 from the shipped reference table
// (lib/difficulty/worked-example.ts): run after changing the table.
import { readFile, writeFile } from 'node:fs/promises';
import { WORKED_EXAMPLE_END, WORKED_EXAMPLE_START, workedExample } from '../lib/difficulty/index.ts';

const path = 'docs/method.md';
const text = await readFile(path, 'utf8');
const start = text.indexOf(WORKED_EXAMPLE_START);
const end = text.indexOf(WORKED_EXAMPLE_END);
if (start < 0 || end < start) throw new Error(`${path} has no worked-example markers`);
await writeFile(path, text.slice(0, start) + workedExample() + text.slice(end + WORKED_EXAMPLE_END.length));
console.log(`${path}: worked example regenerated`);
