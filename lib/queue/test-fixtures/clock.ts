export interface FakeClock {
  now: () => Date;
  advance: (ms: number) => void;
}

export function fakeClock(start = new Date('2030-01-01T00:00:00.000Z')): FakeClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
  };
}
