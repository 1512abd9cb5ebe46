// Rewrites a report's Markdown from its JSON with the current renderer, and its paper-run
// extrapolation from its measured runs with the current rule: the measurements stay as measured.
//   npx tsx bench/render.ts bench/results/full.json
import { readFileSync, writeFileSync } from 'node:fs';
import { extrapolatePaper } from './evolution-throughput.ts';
import { renderReport, type BenchReport } from './report.ts';

const file = process.argv[2];
if (!file?.endsWith('.json')) throw new Error('usage: npx tsx bench/render.ts bench/results/<report>.json');
const report = JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
const evolution = report.parts.evolution;
if (evolution) evolution.paper = extrapolatePaper(evolution, evolution.scaling);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(file.replace(/\.json$/, '.md'), renderReport(report));
console.error(`rewrote ${file} and its .md`);
