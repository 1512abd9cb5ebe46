// The issue-15 calibration case on a scratch database, and a screenshot of its metrics page:
// a scope whose verifier pass rate is 70 % (175 passes, 75 fails), a 25/25 stratified set, and
// final labels 22 pass-pass, 3 pass-fail, 2 fail-pass, 23 fail-fail. Run from a checkout whose
// `next build` is done:  node bench/calibration-seventy.mjs OUT.png [PORT]
// It writes rows directly, not through lib/, so it works against older and newer code alike.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';

const out = path.resolve(process.argv[2] ?? 'calibration.png');
const port = Number(process.argv[3] ?? 3216);
const dir = path.resolve('.envolve/calibration-seventy');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const dbFile = path.join(dir, 'envolve.db');
const env = { ...process.env, DATABASE_URL: `file:${dbFile}` };
const envolve = (...args) =>
  JSON.parse(execFileSync('node', ['bin/envolve.mjs', ...args, '--json'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));

const lead = { email: 'lead@seventy.test', password: 'seventy-lead-password' };
envolve('db', 'migrate');
envolve('users', 'create', '--email', lead.email, '--name', 'Lee Lead', '--role', 'lead', '--password', lead.password);
const taskDir = path.join(dir, 'task', 'seventy-greeting');
for (const [file, content] of Object.entries({
  'task.toml': '[verifier]\ntimeout_sec = 60\n',
  'instruction.md': 'Write "Hello, Ada!" to /app/greeting.txt.\n',
  'environment/Dockerfile': 'FROM envolve/base:bookworm\n',
  'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n',
})) {
  mkdirSync(path.dirname(path.join(taskDir, file)), { recursive: true });
  writeFileSync(path.join(taskDir, file), content);
}
const versionId = envolve('env', 'import', taskDir).results[0].versionId;

const db = new Database(dbFile);
const now = new Date().toISOString().replace('Z', '+00:00');
const rollout = db.prepare(
  `INSERT INTO Rollout (id, attempt, versionId, policy, policyVersion, simulated, seed, status, reward, passed, turns, changedFiles, verifierLog, createdAt, finishedAt)
   VALUES (?, 1, ?, 'scripted', '1', 0, ?, 'completed', ?, ?, 1, '[]', '', ?, ?)`,
);
for (let i = 0; i < 250; i++) rollout.run(`seventy-${i}`, versionId, i, i < 175 ? 1 : 0, i < 175 ? 1 : 0, now, now);
db.close();

const set = envolve(
  'calibration',
  'create',
  '--versions',
  versionId,
  '--size',
  '50',
  '--pass-share',
  '0.5',
  '--seed',
  '70',
  '--overlap',
  '1',
  '--annotators',
  lead.email,
  '--name',
  'Seventy per cent scope',
);
const labelDb = new Database(dbFile);
const items = labelDb.prepare('SELECT id, verifierPassed FROM CalibrationItem WHERE setId = ? ORDER BY position').all(set.id);
let passSeen = 0;
let failSeen = 0;
const leadId = labelDb.prepare('SELECT id FROM User WHERE email = ?').get(lead.email).id;
const label = labelDb.prepare('UPDATE CalibrationItem SET finalLabel = ? WHERE id = ?');
const answer = labelDb.prepare("INSERT INTO CalibrationLabel (id, itemId, annotatorId, answer, note, createdAt) VALUES (?, ?, ?, ?, '', ?)");
for (const item of items) {
  // 22 of 25 verifier passes are human passes; 2 of 25 verifier fails are human passes.
  const human = item.verifierPassed ? (passSeen++ < 22 ? 'pass' : 'fail') : failSeen++ < 2 ? 'pass' : 'fail';
  label.run(human, item.id);
  answer.run(`label-${item.id}`, item.id, leadId, human, now);
}
labelDb.prepare("UPDATE CalibrationSet SET state = 'complete' WHERE id = ?").run(set.id);
labelDb.close();

const server = spawn('npx', ['next', 'start', '-H', '127.0.0.1', '-p', String(port)], { env, stdio: 'ignore', detached: true });
try {
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/icon.svg`)).ok) break;
    } catch {
      if (i > 600) throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/sign-in?next=${encodeURIComponent(`/calibration/${set.id}`)}`);
  await page.getByLabel('Email').fill(lead.email);
  await page.getByLabel('Password').fill(lead.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('headline-fpr').waitFor();
  await page.screenshot({ path: out, fullPage: true });
  console.log(JSON.stringify({ setId: set.id, screenshot: out, headline: await page.getByTestId('headline-fpr').innerText() }));
  await browser.close();
} finally {
  process.kill(-server.pid);
}
