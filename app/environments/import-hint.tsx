// The empty state: there is nothing to show until tasks are imported.
export function ImportHint() {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-10 text-center">
      <h2 className="text-sm font-semibold">No environments yet</h2>
      <p className="mt-1 text-sm text-zinc-600">Import Harbor task directories, then validate them:</p>
      <pre className="mx-auto mt-4 w-fit rounded-md bg-zinc-900 px-4 py-3 text-left font-mono text-sm text-zinc-100">
        <code>npx envolve env import examples/tasks{'\n'}npx envolve env validate &lt;version id&gt;</code>
      </pre>
    </div>
  );
}
