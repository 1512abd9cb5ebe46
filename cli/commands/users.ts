// `envolve users …` and `envolve tokens …`: accounts and machine credentials from the shell.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import {
  ROLES,
  isRole,
  createApiToken,
  createUser,
  findUserByEmail,
  generatePassword,
  listApiTokens,
  listUsers,
  revokeApiToken,
  setPassword,
} from '../../lib/auth/index.ts';
import { settings } from '../../lib/config/index.ts';
import { checkTokenPolicies, releasesOfToken, schedulerConfigFrom, tokenReleasesText, withdrawTokenReleases } from '../../lib/scheduler/index.ts';
import { withDb } from '../context.ts';
import { emit, fail, table, type OutputOptions } from '../output.ts';

interface CreateUserOptions extends OutputOptions {
  email: string;
  name: string;
  role: string;
  password?: string;
}

interface CreateTokenOptions extends OutputOptions {
  user: string;
  name: string;
  policy?: string;
}

interface RevokeTokenOptions extends OutputOptions {
  withdrawReleases?: boolean;
}

const operator = () => ({ id: null, email: `cli:${userInfo().username}` });

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('dashboard accounts');
  users
    .command('create')
    .description('create an account; without --password one is generated and printed once')
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--role <role>', ROLES.join(' | '))
    .option('--password <password>', 'the password (at least 10 characters)')
    .option('--json', 'print one JSON document')
    .action((opts: CreateUserOptions) =>
      run(opts, async () => {
        if (!isRole(opts.role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
        const generatedPassword = opts.password ? null : generatePassword();
        const password = opts.password ?? (generatedPassword as string);
        const user = await withDb((db) => createUser(db, { email: opts.email, name: opts.name, role: opts.role as never, password }));
        emit(opts, { ok: true, user, generatedPassword }, (r) =>
          [`created ${r.user.email} (${r.user.role})`, ...(r.generatedPassword ? [`password: ${r.generatedPassword}  (shown once)`] : [])].join('\n'),
        );
      }),
    );
  users
    .command('set-password')
    .description('set a new password; without --password one is generated and printed once')
    .requiredOption('--email <email>', 'sign-in email')
    .option('--password <password>', 'the new password (at least 10 characters)')
    .option('--json', 'print one JSON document')
    .action((opts: OutputOptions & { email: string; password?: string }) =>
      run(opts, async () => {
        const generatedPassword = opts.password ? null : generatePassword();
        const user = await withDb((db) => setPassword(db, opts.email, opts.password ?? (generatedPassword as string)));
        emit(opts, { ok: true, user, generatedPassword }, (r) =>
          [`new password set for ${r.user.email}`, ...(r.generatedPassword ? [`password: ${r.generatedPassword}  (shown once)`] : [])].join('\n'),
        );
      }),
    );
  users
    .command('list')
    .option('--json', 'print one JSON document')
    .action((opts: OutputOptions) =>
      run(opts, async () => {
        const list = await withDb(listUsers);
        emit(opts, { users: list }, (r) =>
          table([['EMAIL', 'NAME', 'ROLE', 'CREATED'], ...r.users.map((u) => [u.email, u.name, u.role, u.createdAt.toISOString()])]),
        );
      }),
    );

  const tokens = program.command('tokens').description('API tokens for machines (the trainer role)');
  tokens
    .command('create')
    .description('create an API token for a user; it is printed once and only its hash is kept')
    .requiredOption('--user <email>', "the token's user")
    .requiredOption('--name <name>', 'what the token is for')
    .option('--policy <names>', 'the policies it may report groups for, comma-separated (default: trainer)')
    .option('--json', 'print one JSON document')
    .action((opts: CreateTokenOptions) =>
      run(opts, async () => {
        const policies = checkTokenPolicies(opts.policy);
        const created = await withDb(async (db) => {
          const user = await findUserByEmail(db, opts.user);
          if (!user) throw new Error(`no user with email ${opts.user}`);
          return { user: user.email, role: user.role, ...(await createApiToken(db, user.id, opts.name, policies)) };
        });
        emit(
          opts,
          { ok: true, ...created },
          (r) => `${r.token}\n(token "${r.name}" for ${r.user}, reporting for ${r.policies.join(', ')}; shown once, send it as Authorization: Bearer <token>)`,
        );
      }),
    );
  tokens
    .command('list')
    .description('every token: id, name, user, when it was created, last used (to the minute) and revoked')
    .option('--json', 'print one JSON document')
    .action((opts: OutputOptions) =>
      run(opts, async () => {
        const list = await withDb(listApiTokens);
        const when = (date: Date | null) => date?.toISOString() ?? '–';
        emit(opts, { tokens: list }, (r) =>
          table([
            ['ID', 'NAME', 'USER', 'POLICIES', 'CREATED', 'LAST USED', 'REVOKED'],
            ...r.tokens.map((t) => [t.id, t.name, t.user, t.policies.join(','), when(t.createdAt), when(t.lastUsedAt), when(t.revokedAt)]),
          ]),
        );
      }),
    );
  tokens
    .command('revoke <id>')
    .description(
      'revoke a token: refused at once by this process, by running servers within a second; prints the releases its groups made, which --withdraw-releases takes back',
    )
    .option('--withdraw-releases', 'also withdraw its groups and every generation they released (back to approved), once you saw the list')
    .option('--json', 'print one JSON document')
    .action((id: string, opts: RevokeTokenOptions) =>
      run(opts, async () => {
        const outcome = await withDb(async (db) => {
          const token = await revokeApiToken(db, id);
          const releases = await releasesOfToken(db, id);
          const withdrawal = opts.withdrawReleases ? await withdrawTokenReleases(db, operator(), id, schedulerConfigFrom(settings().scheduler)) : null;
          return { token, releases, withdrawal };
        });
        emit(opts, { ok: true, ...outcome }, (r) => {
          const revoked = `revoked token "${r.token.name}" of ${r.token.user} (${r.token.revokedAt?.toISOString()})`;
          if (r.releases.length === 0) return `${revoked}\nits groups released nothing that is still released`;
          if (!r.withdrawal) {
            return `${revoked}\nits groups released ${tokenReleasesText(r.releases)}: run again with --withdraw-releases to withdraw them (they go back to approved)`;
          }
          return `${revoked}\nwithdrew ${r.withdrawal.groupsWithdrawn} of its groups and the releases of ${tokenReleasesText(r.releases)} (back to approved)`;
        });
      }),
    );
}

async function run(opts: OutputOptions, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    fail(opts, err);
  }
}
