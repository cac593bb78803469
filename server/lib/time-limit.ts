/**
 * Waits for `work` at most `ms`: true if it settled (fulfilled or rejected) in time, false if the time ran out. For
 * shutdown steps, where one stuck step must not keep the next (stopping the database) from running.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = work.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
