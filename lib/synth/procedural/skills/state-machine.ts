// A state machine over an event log: per key, the seconds spent open. A repeated `open` does not
// restart the clock and an interval still open at the end runs to the last event; the data holds
// both, so restarting the clock or dropping unclosed intervals gives other totals.
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { a, byName, capitalised } from './shaping.ts';

export interface Transition {
  time: number;
  key: string;
  state: 'open' | 'closed';
}

export function timeOpen(events: Transition[]): [string, number][] {
  const since = new Map<string, number>();
  const total = new Map<string, number>();
  for (const e of events) {
    if (e.state === 'open' && !since.has(e.key)) since.set(e.key, e.time);
    if (e.state === 'closed' && since.has(e.key)) {
      total.set(e.key, (total.get(e.key) ?? 0) + e.time - since.get(e.key)!);
      since.delete(e.key);
    }
  }
  const end = events[events.length - 1]!.time;
  for (const [key, start] of since) total.set(key, (total.get(key) ?? 0) + end - start);
  return [...total].filter(([, seconds]) => seconds > 0).sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
}

export const stateMachineSkill: Skill = {
  name: 'state-machine',
  title: 'a state machine over an event log',
  exportsColumns: true,
  materialise: ({ rng, records }) => {
    const times = new Set(records.map((r) => r.time));
    const events: Transition[] = records.map((r: DataRecord) => ({ time: r.time, key: r.key, state: rng.next() < 0.5 ? 'open' : 'closed' }));
    const keys = [...new Set(records.map((r) => r.key))];
    const [repeated, unclosed] = [keys[0]!, keys[1] ?? `${keys[0]}-b`];
    // The repeated key: open, open, closed as its first three events (added when it has fewer).
    let t = events[0]!.time;
    while (events.filter((e) => e.key === repeated).length < 3) {
      while (times.has((t += 97))) t += 1;
      times.add(t);
      events.push({ time: t, key: repeated, state: 'open' });
      events.sort((a, b) => a.time - b.time);
    }
    events.filter((e) => e.key === repeated).forEach((e, i) => i < 3 && (e.state = i < 2 ? 'open' : 'closed'));
    // The unclosed key: its last event opens, an hour before the log ends, and nothing closes it.
    const end = events[events.length - 1]!.time;
    let at = end - 3_600;
    while (times.has(at)) at--;
    for (const e of events) if (e.key === unclosed && e.time > at) e.key = keys[2] ?? repeated;
    events.push({ time: at, key: unclosed, state: 'open' });
    events.sort((a, b) => a.time - b.time);
    return {
      files: [{ path: 'transitions.log', content: events.map((e) => `${isoTime(e.time)} ${e.key} ${e.state}\n`).join('') }],
      answer: timeOpen(events)
        .map(([key, seconds]) => `${key} ${seconds}`)
        .join('\n'),
    };
  },
  task: (s) =>
    `\`DATA/transitions.log\` is an event log, one line per event in time order: \`YYYY-MM-DDTHH:MM:SSZ KEY STATE\`, where KEY is ${a(s.nouns.key)} and STATE is \`open\` or \`closed\`. Every ${s.nouns.key} starts closed. An \`open\` event of a closed ${s.nouns.key} opens it; an \`open\` of an already open ${s.nouns.key} changes nothing (its open time keeps running from the first \`open\`); a \`closed\` event of an open ${s.nouns.key} closes it; a \`closed\` of a closed one changes nothing. ${capitalised(a(s.nouns.key))} still open at the end counts as open until the time of the log's last event. Compute the total seconds each ${s.nouns.key} was open. Write one line per ${s.nouns.key} with a total above 0 to OUT: the ${s.nouns.key}, a space, and its total; lines ordered by total descending, equal totals by ${s.nouns.key} in byte order.`,
  solve: () => stateAwk(false, false),
  nearMisses: () => [
    { name: 'repeated-open-restarts', why: 'restarts the clock at every open, losing the time since the first one', solve: stateAwk(true, false) },
    { name: 'unclosed-dropped', why: 'ignores intervals still open at the end of the log', solve: stateAwk(false, true) },
  ],
};

function stateAwk(restart: boolean, dropUnclosed: boolean): string {
  return [
    `awk '{ t = mktime(gensub(/[-T:Z]/, " ", "g", $1), 1); last = t }`,
    `  $3 == "open" && (${restart ? '1' : '!($2 in since)'}) { since[$2] = t }`,
    `  $3 == "closed" && ($2 in since) { total[$2] += t - since[$2]; delete since[$2] }`,
    `  END { ${dropUnclosed ? '' : 'for (k in since) total[k] += last - since[k]; '}for (k in total) if (total[k] > 0) print total[k], k }' "$d/transitions.log" |`,
    `  sort -k1,1nr -k2,2 | awk '{ print $2, $1 }' > "$out"`,
  ].join('\n');
}
