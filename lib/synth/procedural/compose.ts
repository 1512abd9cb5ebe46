// Composed scenarios: a domain's records in another layout (CSV, TSV, JSON Lines with the
// domain's column names) and with the noise real exports carry. The composed scenario is a
// Scenario like any other, with its domain's rule: its render writes the layout and adds the
// noise, its extract strips the noise, parses the layout and applies the rule, so every skill
// that reads the scenario's file through `extract` works on it unchanged. Column exports (jq, cut) get the noise on their own file and
// a cleaning pass in their solution (render-step.ts).
import { composeScenario, scenarioParts, type Layout, type Noise, type ScenarioParts } from '../../difficulty/index.ts';
import { formatValue, isoTime, type FileRecord } from './records.ts';
import { hashSeed } from './rng.ts';
import { defineScenario, lines, type Scenario } from './scenario.ts';

export interface NoiseShape {
  describe: string; // one sentence for the instruction
  clean: string; // a pipeline stage that removes the noise from a file on stdin
  add(text: string): string; // the noisy file; deterministic in the text, so two versions of a file get the same noise
}

const NOTES = ['checked', 'reimported', 'partial', 'see-ticket', 'late-batch'];

export const NOISE: Record<Exclude<Noise, 'clean'>, NoiseShape> = {
  comments: {
    describe: 'Lines starting with `# note:` are annotations added by hand, not data.',
    clean: `sed '/^# note:/d'`,
    // After about every fourth line (chosen by the line's own text), never before the first.
    add: (text) =>
      lines(
        text
          .split('\n')
          .slice(0, -1)
          .flatMap((line) => {
            const h = hashSeed('note', line);
            return h % 4 === 0 ? [line, `# note: ${NOTES[h % NOTES.length]}`] : [line];
          }),
      ),
  },
  crlf: { describe: 'Lines end in CRLF (Windows line endings).', clean: `tr -d '\\r'`, add: (text) => text.replace(/\n/g, '\r\n') },
  banner: {
    describe: 'The file starts with a three-line banner (tool, row count, a rule) above the data.',
    clean: 'tail -n +4',
    add: (text) => `Exported by envolve-export 2.3\nLines: ${text.split('\n').length - 1}\n------------------------------\n${text}`,
  },
  bom: { describe: 'The file starts with a UTF-8 byte-order mark.', clean: `sed '1s/^\\xEF\\xBB\\xBF//'`, add: (text) => `\uFEFF${text}` },
};

// A layout renders the domain's rows (counted and excluded alike) with one more column, the
// attribute the domain rule reads, and parses them back into the same six fields.
function layoutOf(domain: Scenario, layout: Exclude<Layout, 'native'>): Pick<Scenario, 'fileName' | 'format' | 'renderRows' | 'parse'> {
  const c = domain.columns;
  const header = [c.key, c.value, c.time, c.category, c.text, domain.rule.column];
  const stem = domain.fileName.split('.')[0]!;
  const cells = (r: FileRecord) => [r.key, formatValue(r.value, domain.value.decimals), isoTime(r.time), r.category, r.text, r.attr];
  const times = `times are ISO 8601 UTC (\`YYYY-MM-DDTHH:MM:SSZ\`), \`${domain.rule.column}\` is ${domain.rule.columnMeaning}`;
  if (layout === 'jsonl') {
    // Values with decimals are strings, as money and measurements usually are in JSON exports.
    const value = (r: FileRecord) => (domain.value.decimals === 0 ? String(r.value) : `"${formatValue(r.value, domain.value.decimals)}"`);
    return {
      fileName: `${stem}.jsonl`,
      format: `JSON Lines, one ${domain.nouns.record} per line: \`{${header.map((h) => `"${h}": …`).join(', ')}}\`; \`${c.value}\` is ${domain.value.decimals === 0 ? 'a number' : 'a string with two decimals'}, ${times}.`,
      renderRows: (rows) =>
        lines(
          rows.map(
            (r) =>
              `{"${c.key}": "${r.key}", "${c.value}": ${value(r)}, "${c.time}": "${isoTime(r.time)}", "${c.category}": "${r.category}", "${c.text}": "${r.text}", "${domain.rule.column}": "${r.attr}"}`,
          ),
        ),
      parse: `jq -r '[${header.map((h) => `.["${h}"]`).join(', ')}] | @tsv'`,
    };
  }
  const sep = layout === 'csv' ? ',' : '\t';
  return {
    fileName: `${stem}.${layout}`,
    format: `${layout === 'csv' ? 'CSV' : 'Tab-separated values'} with the header row \`${header.join(sep === ',' ? ',' : '<TAB>')}\`, one ${domain.nouns.record} per row; ${times}.`,
    renderRows: (rows) => lines([header.join(sep), ...rows.map((r) => cells(r).join(sep))]),
    parse: layout === 'csv' ? `tail -n +2 | awk -F, -v OFS='\\t' '{print $1,$2,$3,$4,$5,$6}'` : 'tail -n +2',
  };
}

export interface ComposedScenario extends Scenario {
  parts: ScenarioParts;
  noise?: NoiseShape; // absent for clean data
}

export function composedScenario(domain: Scenario, layout: Layout, noise: Noise): ComposedScenario {
  const parts = { domain: domain.name, layout, noise };
  const base = layout === 'native' ? domain : { ...domain, ...layoutOf(domain, layout) };
  const title = layout === 'native' ? domain.title : `${domain.title} (${layout.toUpperCase()} export)`;
  const name = composeScenario(parts);
  if (noise === 'clean') return { ...defineScenario({ ...base, name, title }), parts };
  const shape = NOISE[noise];
  return {
    ...defineScenario({
      ...base,
      name,
      title,
      format: `${base.format} ${shape.describe}`,
      renderRows: (rows) => shape.add(base.renderRows(rows)),
      parse: `${shape.clean} | ${base.parse}`,
    }),
    parts,
    noise: shape,
  };
}

export { scenarioParts };
