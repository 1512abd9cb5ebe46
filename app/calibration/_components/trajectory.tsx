// A trajectory as a human judges it: the instruction once, the commands the agent ran with their
// output, and the files it produced.
// Rendered from lib/calibration's TrajectoryView, which holds no verifier field to show.
import type { TrajectoryView } from '@/lib/calibration/index.ts';

export function Trajectory({ trajectory }: { trajectory: TrajectoryView }) {
  return (
    <div className="flex flex-col gap-5">
      <section aria-labelledby="instruction-heading">
        <h3 id="instruction-heading" className="mb-1 text-sm font-semibold text-zinc-700">
          Instruction <span className="font-normal text-zinc-400">· {trajectory.environmentName}</span>
        </h3>
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm">{trajectory.instruction}</pre>
      </section>
      <section aria-labelledby="turns-heading">
        <h3 id="turns-heading" className="mb-1 text-sm font-semibold text-zinc-700">
          What the agent ran{' '}
          <span className="font-normal text-zinc-400">
            · {trajectory.turns.length} commands (its own messages are not shown: judge the work, not its claims)
          </span>
        </h3>
        <ol className="flex flex-col gap-2">
          {trajectory.turns.map((turn, index) => (
            <li key={turn.stepId} data-testid="turn" className="rounded-md border border-zinc-200 bg-white p-2 text-sm">
              <div className="mb-1 text-xs text-zinc-500">
                Command {index + 1}
                {turn.exitCode !== null && <span> · exit {turn.exitCode}</span>}
              </div>
              <pre className="overflow-auto whitespace-pre-wrap rounded bg-zinc-900 p-2 font-mono text-xs text-zinc-100">$ {turn.command}</pre>
              {turn.output && <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-zinc-100 p-2 font-mono text-xs">{turn.output}</pre>}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="artifacts-heading">
        <h3 id="artifacts-heading" className="mb-1 text-sm font-semibold text-zinc-700">
          Files the agent produced <span className="font-normal text-zinc-400">· {trajectory.artifacts.length}</span>
        </h3>
        {trajectory.artifacts.length === 0 ? (
          <p className="text-sm text-zinc-500">The agent created or changed no file.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {trajectory.artifacts.map((a) => (
              <li key={a.path} data-testid="artifact" className="rounded-md border border-zinc-200 bg-white text-sm">
                <div className="border-b border-zinc-100 px-2 py-1 font-mono text-xs">
                  {a.path} <span className="text-zinc-400">· {a.size} bytes</span>
                </div>
                {a.text === '' ? (
                  <p className="p-2 text-xs text-zinc-500">Empty file.</p>
                ) : a.text !== null ? (
                  <pre className="max-h-64 overflow-auto whitespace-pre-wrap p-2 font-mono text-xs">{a.text}</pre>
                ) : (
                  <p className="p-2 text-xs text-zinc-500">
                    {a.omitted === 'too-large' ? 'Too large to show.' : a.omitted === 'binary' ? 'Binary file.' : 'Content not stored.'}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
