import { describe, expect, it } from 'vitest';
import { healthVerdictWithinMs, parseDependsOn, parseDuration, parseHealthcheck } from './compose-keys.ts';
import { parseCompose } from './compose.ts';

describe('compose keys', () => {
  it('durations as compose writes them', () => {
    expect(parseDuration('1m30s')).toBe(90e9);
    expect(parseDuration('500ms')).toBe(500e6);
    expect(() => parseDuration('soon')).toThrow("'soon' is not a duration");
  });

  it("a healthcheck in Docker's terms, with Docker's defaults, and the time it may take to decide", () => {
    const hc = parseHealthcheck({ test: 'pg_isready', interval: '2s', retries: 5 })!;
    expect(hc).toEqual({ Test: ['CMD-SHELL', 'pg_isready'], Interval: 2e9, Timeout: 30e9, Retries: 5, StartPeriod: 0 });
    expect(healthVerdictWithinMs(hc)).toBe(6 * 32_000);
    expect(parseHealthcheck({ test: ['NONE'] })).toBeUndefined();
    expect(parseHealthcheck({ test: ['CMD', 'true'], disable: true })).toBeUndefined();
  });

  it('depends_on in both forms', () => {
    expect(parseDependsOn(['db'])).toEqual({ db: 'service_started' });
    expect(parseDependsOn({ db: { condition: 'service_healthy' }, init: { condition: 'service_completed_successfully' } })).toEqual({
      db: 'service_healthy',
      init: 'service_completed_successfully',
    });
    expect(() => parseDependsOn({ db: { condition: 'service_ready' } })).toThrow("depends_on 'db' has condition 'service_ready'");
  });
});

describe('parseCompose', () => {
  const path = 'environment/docker-compose.yaml';
  it('reads the keys Harbor tasks use and orders sidecars after what they depend on', () => {
    const text = [
      'services:',
      '  main: {build: ., image: "${MAIN_IMAGE_NAME}", expose: ["22"], depends_on: {api: {condition: service_healthy}}}',
      '  api: {image: "python:3.12-slim", expose: ["7000"], depends_on: [db], user: "1000", working_dir: /srv, tmpfs: ["/run:size=8m"], entrypoint: ["python3"]}',
      '  db: {image: "postgres:16", environment: [POSTGRES_PASSWORD=x], healthcheck: {test: ["CMD", "pg_isready"]}}',
    ].join('\n');
    const spec = parseCompose(path, text);
    if (!spec.ok) throw new Error(spec.reason);
    expect(spec.sidecars.map((s) => s.name)).toEqual(['db', 'api']);
    expect(spec.mainDependsOn).toEqual({ api: 'service_healthy' });
    expect(spec.sidecars[1]).toMatchObject({
      user: '1000',
      workingDir: '/srv',
      tmpfs: ['/run'],
      entrypoint: ['python3'],
      dependsOn: { db: 'service_started' },
    });
    expect(spec.sidecars[0]!.environment).toEqual({ POSTGRES_PASSWORD: 'x' });
  });

  it('refuses what it cannot honour, with the reason', () => {
    const refuse = (services: string) => parseCompose(path, `services:\n  main: {build: .}\n${services}`);
    expect(refuse('  web: {image: nginx, ports: ["80:80"]}\n')).toEqual({
      ok: false,
      reason: `${path}: service 'web' uses ports (trials have no host network; services reach each other by name), which Envolve does not run`,
    });
    expect(refuse('  a: {image: x, depends_on: [b]}\n  b: {image: y, depends_on: [a]}\n')).toEqual({
      ok: false,
      reason: `${path}: the services' depends_on form a cycle`,
    });
    expect(refuse('  a: {image: x, depends_on: [nope]}\n')).toEqual({ ok: false, reason: `${path}: service 'a' depends on nope, which is not a sidecar here` });
    expect(refuse('  a: {image: x, healthcheck: {test: ["CMD"], interval: soon}}\n')).toEqual({
      ok: false,
      reason: `${path}: 'soon' is not a duration (e.g. 10s, 1m30s, 500ms)`,
    });
  });

  it("honours read-only volumes of the task's own files and refuses every other volume, with the reason", () => {
    const parsed = (volumes: string) => parseCompose(path, `services:\n  main: {build: .}\n  api: {image: x, volumes: ${volumes}}\n`);
    const ok = parsed('["./site:/srv/:ro", {type: bind, source: ./conf/app.ini, target: /etc/app.ini, read_only: true}, ".:/task:ro"]');
    if (!ok.ok) throw new Error(ok.reason);
    expect(ok.sidecars[0]!.volumes).toEqual([
      { source: 'environment/site', target: '/srv' },
      { source: 'environment/conf/app.ini', target: '/etc/app.ini' },
      { source: 'environment', target: '/task' },
    ]);
    const reason = (volumes: string) => {
      const spec = parsed(volumes);
      return spec.ok ? 'accepted' : spec.reason;
    };
    const only = "sidecars may only mount the task's own files";
    expect(reason('["/var/run/docker.sock:/var/run/docker.sock:ro"]')).toBe(
      `${path}: volume '/var/run/docker.sock:/var/run/docker.sock:ro' mounts a host path; ${only} (a path relative to environment/), read-only`,
    );
    expect(reason('["pgdata:/var/lib/postgresql/data"]')).toBe(
      `${path}: volume 'pgdata:/var/lib/postgresql/data' mounts a named volume; ${only} (a path relative to environment/), read-only`,
    );
    expect(reason('["./site:/srv"]')).toBe(`${path}: volume './site:/srv' is writable; mount the task's files read-only (':ro', or read_only: true)`);
    expect(reason('["../tests:/tests:ro"]')).toBe(`${path}: volume '../tests:/tests:ro' reaches outside the task's environment/ directory`);
    expect(reason('["/data"]')).toBe(`${path}: volume '/data' is an anonymous volume; ${only}, read-only`);
    expect(reason('[{type: volume, source: cache, target: /cache, read_only: true}]')).toBe(
      `${path}: volume 'cache' → '/cache' is of type volume; ${only}, read-only`,
    );
    expect(reason('["./site:srv:ro"]')).toBe(`${path}: volume './site:srv:ro' has a container path that is not absolute`);
  });
});
