// CI artifact index. Rule: artifacts the retention policy expired are gone.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines } from '../scenario.ts';

export const ciArtifacts = defineScenario({
  name: 'ci-artifacts',
  title: 'CI artifact index',
  fileName: 'artifacts.idx',
  format:
    'one artifact per line as space-separated `field=value` pairs: `pipeline=NAME size=BYTES finished=ISO_TIME result=RESULT artifact=FILE state=kept|expired`.',
  nouns: { record: 'artifact', records: 'artifacts', key: 'pipeline', value: 'size in bytes', time: 'finish time', category: 'result', text: 'artifact file' },
  columns: { key: 'pipeline', value: 'size', time: 'finished', category: 'result', text: 'artifact' },
  value: { decimals: 0, min: 100, max: 900_000 },
  categories: ['success', 'failed', 'cancelled', 'flaky'],
  texts: ['app.tar.gz', 'coverage.xml', 'junit.xml', 'sbom.json', 'docs.zip', 'wheel.whl'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['build', 'test', 'deploy', 'lint'])}-${r.pick(['api', 'web', 'worker', 'cli', 'mobile'])}`),
  rule: {
    name: 'expired-artifacts-excluded',
    describe: 'An artifact with `state=expired` was deleted by the retention policy: it does not count as an artifact for any question of this step.',
    column: 'state',
    columnMeaning: '`kept` or `expired`',
    ...flaggedRows('kept', 'expired'),
  },
  renderRows: (rows) =>
    lines(rows.map((r) => `pipeline=${r.key} size=${r.value} finished=${isoTime(r.time)} result=${r.category} artifact=${r.text} state=${r.attr}`)),
  parse: `awk -v OFS='\\t' '{for(i=1;i<=NF;i++){n=index($i,"="); f[substr($i,1,n-1)]=substr($i,n+1)} print f["pipeline"],f["size"],f["finished"],f["result"],f["artifact"],f["state"]}'`,
});
