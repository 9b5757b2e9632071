/**
 * `work` run while counting the turns the event loop takes meanwhile (a `setImmediate` that schedules itself
 * again each turn): zero when `work` never lets the loop turn, however many promises it awaits.
 */
export async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns += 1;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  try {
    await work();
  } finally {
    counting = false;
  }
  return turns;
}
