// The file as it stood after one import commit. Every batch is non-empty, so reading the latest
// version, only the lines that commit added, or the commit at the asked position of the
// newest-first log (never the asked one, for batch 2 or 3 of 4) sums other records.
import type { Scenario } from '../scenario.ts';
import { chunk, decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';

const AUTHORS = ['Ada Byron <ada@example.test>', 'Linus Tor <linus@example.test>', 'Grace Hop <grace@example.test>', 'Ken Thom <ken@example.test>'];

const total = (s: Scenario): string => `awk -F'\\t' '{ t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`;
const revision = (batch: number): string => `rev=$(git -C "$d/repo" log --format=%H --grep='^Import batch ${batch}$')`;

const ORDINAL: Record<number, string> = { 2: 'second', 3: 'third' };

// The repository is built at image-build time from snapshots, with fixed author and committer
// dates, so commit hashes are the same on every build.
export const gitHistory: Skill = {
  name: 'git-history',
  title: 'history queries with git',
  buildsData: true,
  materialise: ({ scenario, params, rng, records }) => {
    const batches = chunk(records, 4);
    const files = batches.map((_, i) => ({ path: `snapshots/${i + 1}`, content: scenario.render(batches.slice(0, i + 1).flat()) }));
    const commits = batches.map((batch, i) => {
      const author = rng.pick(AUTHORS);
      const name = author.replace(/ <.*/, '');
      const email = author.replace(/.*<(.*)>/, '$1');
      const date = `${batch[batch.length - 1]!.time} +0000`;
      return [
        `cp snapshots/${i + 1} 'repo/${scenario.fileName}'`,
        `git -C repo add '${scenario.fileName}'`,
        `GIT_AUTHOR_DATE='${date}' GIT_COMMITTER_DATE='${date}' git -C repo -c user.name='${name}' -c user.email='${email}' commit -q -m 'Import batch ${i + 1}'`,
      ].join('\n');
    });
    return {
      files,
      build: `set -e\ngit init -q -b main repo\n${commits.join('\n')}\nrm -rf snapshots\n`,
      answer: show(scenario, sum(batches.slice(0, params.batch).flat())),
    };
  },
  task: (s, p) =>
    `\`DATA/repo\` is a git repository whose file \`${s.fileName}\` was imported in batches, one commit per batch with the subjects \`Import batch 1\` to \`Import batch 4\`. Sum the ${s.nouns.value} over the ${s.nouns.records} the file held right after the commit \`Import batch ${p.batch}\` (later commits added more). Write the sum to OUT ${decimalsPhrase(s)}.`,
  solve: (s, p) => [revision(p.batch), `git -C "$d/repo" show "$rev:${s.fileName}" | extract | ${total(s)}`].join('\n'),
  nearMisses: (s, p) => [
    {
      name: 'latest-version',
      why: 'reads the file as it is now, not as it stood after the asked commit',
      solve: `extract < "$d/repo/${s.fileName}" | ${total(s)}`,
    },
    {
      name: 'commit-diff-only',
      why: 'sums only the records the asked commit added, not everything the file held after it',
      solve: [
        revision(p.batch),
        `{ diff <(git -C "$d/repo" show "$rev~1:${s.fileName}" | extract) <(git -C "$d/repo" show "$rev:${s.fileName}" | extract) || true; } | sed -n 's/^> //p' | ${total(s)}`,
      ].join('\n'),
    },
    {
      name: 'log-position',
      why: `takes the ${ORDINAL[p.batch] ?? p.batch} line of the newest-first log as import batch ${p.batch}`,
      solve: [`rev=$(git -C "$d/repo" log --format=%H | sed -n '${p.batch}p')`, `git -C "$d/repo" show "$rev:${s.fileName}" | extract | ${total(s)}`].join(
        '\n',
      ),
    },
  ],
};
