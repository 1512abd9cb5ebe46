// The scenario catalogue. Names are fixed: the reference-priors table (lib/difficulty) uses them.
import type { Scenario } from '../scenario.ts';
import { appConfig } from './app-config.ts';
import { authSyslog } from './auth-syslog.ts';
import { ciArtifacts } from './ci-artifacts.ts';
import { crontabSchedules } from './crontab-schedules.ts';
import { dnsZone } from './dns-zone.ts';
import { genomicsFasta } from './genomics-fasta.ts';
import { httpApiTraces } from './http-api-traces.ts';
import { inventoryCsv } from './inventory-csv.ts';
import { kubernetesEvents } from './kubernetes-events.ts';
import { libraryCatalog } from './library-catalog.ts';
import { mailSpool } from './mail-spool.ts';
import { packageManifest } from './package-manifest.ts';
import { paymentsLedger } from './payments-ledger.ts';
import { sensorTelemetry } from './sensor-telemetry.ts';
import { weatherObservations } from './weather-observations.ts';
import { webAccessLog } from './web-access-log.ts';

export const SCENARIOS: readonly Scenario[] = [
  webAccessLog,
  paymentsLedger,
  sensorTelemetry,
  packageManifest,
  genomicsFasta,
  mailSpool,
  ciArtifacts,
  authSyslog,
  inventoryCsv,
  dnsZone,
  kubernetesEvents,
  httpApiTraces,
  appConfig,
  crontabSchedules,
  libraryCatalog,
  weatherObservations,
];
