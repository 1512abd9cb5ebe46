// Sessionisation: per key, a gap of more than 30 minutes between consecutive records starts a new
// session. The data holds a long session with a gap of exactly 30 minutes inside it (a `>=` rule
// splits it) and a short burst of another key with more records (ranking by record count picks it).
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, byName, removeWhere, nativeFile } from './shaping.ts';

const GAP = 1_800;

export interface Session {
  key: string;
  start: number;
  end: number;
  count: number;
}

export function sessionsOf(records: DataRecord[], splitAtGap: (gap: number) => boolean = (gap) => gap > GAP): Session[] {
  const sessions: Session[] = [];
  const open = new Map<string, Session>();
  for (const r of [...records].sort((a, b) => a.time - b.time)) {
    const current = open.get(r.key);
    if (current && !splitAtGap(r.time - current.end)) {
      current.end = r.time;
      current.count++;
    } else {
      const session = { key: r.key, start: r.time, end: r.time, count: 1 };
      sessions.push(session);
      open.set(r.key, session);
    }
  }
  return sessions;
}

export function longestSession(records: DataRecord[]): Session {
  return sessionsOf(records).sort((a, b) => b.end - b.start - (a.end - a.start) || byName(a.key, b.key) || a.start - b.start)[0]!;
}

export const sessionsSkill: Skill = {
  name: 'sessions',
  title: 'sessionisation by inactivity gaps',
  materialise: ({ scenario, params, rng, records }) => {
    const natural = sessionsOf(records);
    const longest = Math.max(...natural.map((s) => s.end - s.start));
    const most = Math.max(...natural.map((s) => s.count));
    const other = rng.pick([...new Set(records.map((r) => r.key))].filter((k) => k !== params.key).concat(`${params.key}-b`));
    const template = rng.pick(records);
    // The long session: a first gap of exactly 30 minutes, then 20-minute gaps until it outlasts
    // every natural session.
    const gaps = [GAP];
    while (gaps.reduce((a, b) => a + b, 0) <= longest + GAP + 60) gaps.push(1_200);
    const span = gaps.reduce((a, b) => a + b, 0);
    const t0 = records[Math.floor(records.length / 3)]!.time + 7;
    const burstStart = t0 + span + 4 * GAP;
    const burstCount = Math.max(most, gaps.length + 1) + 2;
    // Nothing else of either key near the inserted runs, so they stay whole and apart.
    removeWhere(
      records,
      (r) =>
        (r.key === params.key && r.time > t0 - 2 * GAP && r.time < t0 + span + 2 * GAP) ||
        (r.key === other && r.time > burstStart - 2 * GAP && r.time < burstStart + burstCount * 60 + 2 * GAP),
    );
    let t = t0;
    addAt(records, { ...template, key: params.key }, t);
    for (const gap of gaps) addAt(records, { ...template, key: params.key }, (t += gap));
    for (let i = 0; i < burstCount; i++) addAt(records, { ...rng.pick(records), key: other }, burstStart + i * 60);
    const answer = longestSession(records);
    return { files: [nativeFile(scenario, records)], answer: `${answer.key} ${isoTime(answer.start)} ${answer.end - answer.start} ${answer.count}` };
  },
  task: (s) =>
    `Split the ${s.nouns.records} of \`DATA/${s.fileName}\` into sessions per ${s.nouns.key}: take each ${s.nouns.key}'s ${s.nouns.records} in ${s.nouns.time} order; a gap of more than 30 minutes (1800 seconds) since that ${s.nouns.key}'s previous ${s.nouns.record} starts a new session, a gap of exactly 1800 seconds does not. A session lasts from its first to its last ${s.nouns.record}. Find the longest-lasting session (ties: the smallest ${s.nouns.key} in byte order, then the earliest start). Write one line to OUT: its ${s.nouns.key}, its start time as \`YYYY-MM-DDTHH:MM:SSZ\`, its duration in seconds and its number of ${s.nouns.records}, separated by spaces.`,
  solve: (s) => sessionAwk(s.fileName, '>', 'end - start'),
  nearMisses: (s) => [
    {
      name: 'gap-boundary-inclusive',
      why: 'starts a new session at a gap of exactly 1800 seconds (>= instead of >)',
      solve: sessionAwk(s.fileName, '>=', 'end - start'),
    },
    {
      name: 'longest-by-count',
      why: 'takes the session with the most records as the longest, not the one lasting longest',
      solve: sessionAwk(s.fileName, '>', 'n'),
    },
  ],
};

// Sessions per key in time order (sort by key, then time), then the best by `measure`.
function sessionAwk(fileName: string, split: '>' | '>=', measure: 'end - start' | 'n'): string {
  return [
    `extract < "$d/${fileName}" | cut -f1,3 | sort -t "$(printf '\\t')" -k1,1 -k2,2 | awk -F'\\t' '`,
    `  function flush() { if (key != "") print key, iso, end - start, n, ${measure} }`,
    `  { t = mktime(gensub(/[-T:Z]/, " ", "g", $2), 1) }`,
    `  $1 != key || t - end ${split} 1800 { flush(); key = $1; start = t; iso = $2; n = 0 }`,
    `  { end = t; n++ }`,
    `  END { flush() }' | sort -k5,5nr -k1,1 -k2,2 | awk 'NR == 1 { print $1, $2, $3, $4 }' > "$out"`,
  ].join('\n');
}
