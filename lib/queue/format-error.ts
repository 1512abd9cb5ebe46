const MAX_ERROR_CHARS = 8_000;

/** Message and stack of a thrown value, cut to a size that fits a row and still shows where it came from. */
export function formatError(error: unknown): string {
  const text = describe(error);
  if (text.length <= MAX_ERROR_CHARS) return text;
  const omitted = text.length - MAX_ERROR_CHARS;
  return `${text.slice(0, MAX_ERROR_CHARS)}\n… [${omitted} more characters truncated]`;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const head = `${error.name}: ${error.message}`;
    // V8 stacks start with the name and message; other runtimes' may not.
    return error.stack?.startsWith(head) ? error.stack : [head, error.stack].filter(Boolean).join('\n');
  }
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
