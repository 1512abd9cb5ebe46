// Numeric command-line flags, checked before a command touches the database or Docker.
export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, not '${value}'`);
  return n;
}

export function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) throw new Error(`${flag} must be an integer from 0 to 2^31-1, not '${value}'`);
  return n;
}

export function fraction(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`${flag} must be a number from 0 to 1, not '${value}'`);
  return n;
}
