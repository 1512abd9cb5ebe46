import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stripShellComments } from './shell-comments.ts';

// bash's own reading of a script: the body of a function made of it, as `declare -f` prints it
// (comments gone, every command and here-document kept).
const asBashReadsIt = (script: string) => execFileSync('bash', ['-c', `f() {\n${script}\n}\ndeclare -f f`], { encoding: 'utf8' });
const expectSameToBash = (script: string) => expect(asBashReadsIt(stripShellComments(script))).toBe(asBashReadsIt(script));

describe('stripShellComments', () => {
  it('drops comment lines and trailing comments, keeping every command byte for byte', () => {
    const script = [
      '#!/bin/bash',
      '# s1: awk-fields over auth-syslog',
      'set -euo pipefail',
      '',
      'out=/app/out/s1.txt  # the answer',
      '  # indented note',
      'wc -l < in.txt > "$out"',
    ].join('\n');
    expect(stripShellComments(script)).toBe(['set -euo pipefail', '', 'out=/app/out/s1.txt', 'wc -l < in.txt > "$out"'].join('\n'));
    expectSameToBash(script);
  });

  it('keeps a # that is not at the start of a word, or is quoted or escaped', () => {
    const kept = [
      'echo "$#" ${#arr[@]} ${x#prefix} ${x##*/} $((16#ff))',
      "grep -c '^## Step ' instruction.md",
      'echo "a # b" \\# c',
      "printf $'tab\\t# not a comment\\n'",
      'echo a#b',
      'd="/app/data/s2/$(awk \'NR == 1 { print $1; exit }\' /app/out/s1.txt)"',
      'echo "$(echo "inner # quoted")"',
      'echo `echo # inside backquotes`',
      "awk -F'\\t' -v c='Accepted-password' '$4 == c { t += $2 } END { printf \"%.0f\\n\", t }'",
    ];
    for (const line of kept) expect(stripShellComments(line)).toBe(line);
    expectSameToBash(kept.join('\n'));
  });

  it('follows quotes across lines', () => {
    const script = ["awk '", '  # part of the awk program', "  { print $1 }' file  # but this is a comment"].join('\n');
    expect(stripShellComments(script)).toBe(["awk '", '  # part of the awk program', "  { print $1 }' file"].join('\n'));
    expectSameToBash(script);
  });

  it('keeps here-document bodies whole, with or without -, quoted or not', () => {
    const script = [
      'cat > a.py <<EOF  # writes the script',
      '# a python comment, part of the file',
      'EOF',
      "cat <<-'END' > b.txt",
      '\t# kept too',
      '\tEND',
      'cat <<< "# a here-string"',
      '# gone',
    ].join('\n');
    expect(stripShellComments(script)).toBe(
      ['cat > a.py <<EOF', '# a python comment, part of the file', 'EOF', "cat <<-'END' > b.txt", '\t# kept too', '\tEND', 'cat <<< "# a here-string"'].join(
        '\n',
      ),
    );
    expectSameToBash(script);
  });

  it('keeps a continuation ending where bash ends it', () => {
    expect(stripShellComments('echo one \\\n# comment\necho two')).toBe('echo one \\\n\necho two');
    expectSameToBash('echo one \\\n# comment\necho two');
  });

  it('leaves a script it cannot follow as it was', () => {
    for (const script of ["echo 'unterminated # x", 'cat <<EOF\nno end # x', 'echo $(cat <<EOF\nx\nEOF\n) # note', '(( x << 2 )) # shift'])
      expect(stripShellComments(script)).toBe(script);
  });

  it('changes nothing bash runs: a shipped reference solution parses to the same commands', () => {
    const solve = readFileSync('examples/tasks/seed-logs-awk/solution/solve.sh', 'utf8');
    const stripped = stripShellComments(solve);
    expect(stripped).not.toMatch(/^\s*#/m);
    expect(stripped).toContain('out=/app/out/s2.txt');
    expectSameToBash(solve);
  });
});
