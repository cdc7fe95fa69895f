// How long work takes, for the tests that bound it ("parsed in linear time", "refused quickly"):
// the CPU time this process spends on it, not the time on the clock. On a loaded machine the
// clock also counts the time other processes had the CPU; what a backtracking pattern or an
// expanding alias costs is CPU time, which that load does not add to.

/** The CPU milliseconds (user and system, all of this process's threads) since `since`. */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** What `work` returns, and the CPU milliseconds it took. */
export function cpuTimed<T>(work: () => T): { value: T; ms: number } {
  const since = process.cpuUsage();
  const value = work();
  return { value, ms: cpuMsSince(since) };
}
