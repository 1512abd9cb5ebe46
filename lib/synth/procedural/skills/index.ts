// The skill catalogue. Names are fixed: the reference-priors table (lib/difficulty) uses them.
import type { Skill } from '../skill.ts';
import { awkFields } from './awk-fields.ts';
import { base64Decode } from './base64-decode.ts';
import { bcArithmetic } from './bc-arithmetic.ts';
import { configParse } from './config-parse.ts';
import { cutColumns } from './cut-columns.ts';
import { dateArithmetic } from './date-arithmetic.ts';
import { diffCompare } from './diff-compare.ts';
import { filePermissions } from './file-permissions.ts';
import { findXargs } from './find-xargs.ts';
import { gitHistory } from './git-history.ts';
import { grepRegex } from './grep-regex.ts';
import { gzipStream } from './gzip-stream.ts';
import { joinTables } from './join-tables.ts';
import { jqQuery } from './jq-query.ts';
import { pythonScript } from './python-script.ts';
import { sedRewrite } from './sed-rewrite.ts';
import { sha256Checksum } from './sha256-checksum.ts';
import { sortUniqCount } from './sort-uniq-count.ts';
import { sqliteSql } from './sqlite-sql.ts';
import { tarArchive } from './tar-archive.ts';
import { trNormalise } from './tr-normalise.ts';
import { wcCount } from './wc-count.ts';
import { leftJoin } from './left-join.ts';
import { busiestHourSkill } from './busiest-hour.ts';
import { sessionsSkill } from './sessions.ts';
import { medianSkill } from './median.ts';
import { dedupeSkill } from './dedupe-composite.ts';
import { topKTiesSkill } from './top-k-ties.ts';
import { snapshotDiffSkill } from './snapshot-diff.ts';
import { aboveMeanSkill } from './above-mean.ts';
import { sqlHavingSkill } from './sql-having.ts';
import { jqGroupBySkill } from './jq-group-by.ts';
import { stateMachineSkill } from './state-machine.ts';
import { runningTotalSkill } from './running-total.ts';
import { movingWindowSkill } from './moving-window.ts';
import { rateOfChangeSkill } from './rate-of-change.ts';
import { histogramSkill } from './histogram.ts';
import { maxConcurrencySkill } from './max-concurrency.ts';
import { denseRankSkill } from './dense-rank.ts';
import { pivotTableSkill } from './pivot-table.ts';
import { timeGapsSkill } from './time-gaps.ts';
import { longestStreakSkill } from './longest-streak.ts';
import { regexExtractSkill } from './regex-extract.ts';
import { quotedCsvSkill } from './quoted-csv.ts';
import { reconcileSkill } from './reconcile.ts';
import { aboveUpstreamSkill } from './above-upstream.ts';

export const SKILLS: readonly Skill[] = [
  awkFields,
  sortUniqCount,
  grepRegex,
  sedRewrite,
  jqQuery,
  sqliteSql,
  joinTables,
  tarArchive,
  sha256Checksum,
  dateArithmetic,
  findXargs,
  filePermissions,
  gitHistory,
  configParse,
  cutColumns,
  wcCount,
  diffCompare,
  gzipStream,
  bcArithmetic,
  trNormalise,
  pythonScript,
  base64Decode,
  // Computations over the records beyond one tool each: joins, windows, sessions, ranks, diffs,
  // derived thresholds, state machines, parsers. Each names the near misses its data defeats.
  leftJoin,
  busiestHourSkill,
  sessionsSkill,
  medianSkill,
  dedupeSkill,
  topKTiesSkill,
  snapshotDiffSkill,
  aboveMeanSkill,
  sqlHavingSkill,
  jqGroupBySkill,
  stateMachineSkill,
  runningTotalSkill,
  movingWindowSkill,
  rateOfChangeSkill,
  histogramSkill,
  maxConcurrencySkill,
  denseRankSkill,
  pivotTableSkill,
  timeGapsSkill,
  longestStreakSkill,
  regexExtractSkill,
  quotedCsvSkill,
  reconcileSkill,
  // Computations with an earlier step's answer: the steps the length axis adds after a step that
  // answers an integer.
  aboveUpstreamSkill,
];
