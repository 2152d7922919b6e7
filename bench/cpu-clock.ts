/**
 * Preloaded into `tafel bench` by `side-by-side.ts --cpu` (`node --import`): the bench's
 * clock, `performance.now()`, becomes this process's CPU time (user + system, in ms),
 * so that deals/s are deals per CPU second, which other processes on a loaded machine
 * disturb far less than wall time. The bench's `gc:` line compares V8's wall-clock
 * timestamps with this clock and means nothing under it.
 */
const cpuUsage = process.cpuUsage.bind(process);
performance.now = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};
