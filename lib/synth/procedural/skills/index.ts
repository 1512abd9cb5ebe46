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
];
