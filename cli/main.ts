// The `envolve` command line: everything an RL engineer does headless.
import { Command } from 'commander';
import { settings, SettingsError } from '../lib/config/index.ts';
import { registerAttentionCommand } from './commands/attention.ts';
import { registerCalibrationCommands } from './commands/calibration.ts';
import { registerDatasetCommands } from './commands/dataset.ts';
import { registerDeterminismCommand } from './commands/determinism.ts';
import { registerDoctorCommand } from './commands/doctor.ts';
import { registerEnvCommands } from './commands/env.ts';
import { registerEvolveCommand } from './commands/evolve.ts';
import { registerPriorsCommands } from './commands/priors.ts';
import { registerProfileCommand } from './commands/profile.ts';
import { registerRolloutCommand } from './commands/rollout.ts';
import { registerRubricCommands } from './commands/rubric.ts';
import { registerSchedulerCommands } from './commands/scheduler.ts';
import { registerSeedsCommands } from './commands/seeds.ts';
import { registerSystemCommands } from './commands/system.ts';
import { registerTrajectoryCommands } from './commands/trajectory.ts';
import { registerUserCommands } from './commands/users.ts';
import { registerWebCommand } from './commands/web.ts';
import { registerWorkerCommand } from './commands/worker.ts';

// A bad setting stops every command before it starts, naming the variable.
try {
  settings();
} catch (err) {
  if (!(err instanceof SettingsError)) throw err;
  process.stderr.write(`envolve: ${err.message}\n`);
  process.exit(2);
}

const program = new Command()
  .name('envolve')
  .description('Evolve terminal-agent RL environments (Harbor tasks) into harder ones, with validators and humans in the loop.')
  .showHelpAfterError();

registerEnvCommands(program);
registerDatasetCommands(program);
registerDoctorCommand(program);
registerCalibrationCommands(program);
registerEvolveCommand(program);
registerAttentionCommand(program);
registerPriorsCommands(program);
registerWorkerCommand(program);
registerRubricCommands(program);
registerSchedulerCommands(program);
registerSeedsCommands(program);
registerSystemCommands(program);
registerUserCommands(program);
registerRolloutCommand(program);
registerTrajectoryCommands(program);
registerProfileCommand(program);
registerDeterminismCommand(program);
registerWebCommand(program);

await program.parseAsync(process.argv);
