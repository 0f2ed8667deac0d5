/**
 * Draws the dashboard's charts one per task, in the order they asked (issue #13, start-up).
 *
 * Four charts mounting in one React commit used to create, lay out and draw all four in that
 * commit's effects: one task of 170-290 ms, and the first chart appeared only after the last was
 * drawn. Each chart now queues its first drawing here; the queue runs one job per macrotask, so
 * the browser paints the first chart before the second starts and no start-up task carries more
 * than one chart.
 */
type Job = () => void;

const queue: Job[] = [];
let scheduled = false;
const channel = typeof MessageChannel === 'undefined' ? null : new MessageChannel();

function runNext(): void {
  scheduled = false;
  const job = queue.shift();
  if (queue.length > 0) schedule();
  job?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // A message is the next task without setTimeout's clamping; a paint can happen between two.
  if (channel) channel.port2.postMessage(null);
  else setTimeout(runNext, 0);
}

if (channel) channel.port1.onmessage = runNext;

/** Runs `job` in a task of its own after the jobs queued before it. Answers a cancel function. */
export function scheduleChartJob(job: Job): () => void {
  queue.push(job);
  schedule();
  return () => {
    const at = queue.indexOf(job);
    if (at >= 0) queue.splice(at, 1);
  };
}
