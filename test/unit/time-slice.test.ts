import { runSteps, type Steps } from '../../domain/scoring/steps';
import { runInSlices } from '../../platform/time-slice';

function* countTo(n: number, log: string[]): Steps<number> {
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    sum += i;
    log.push(`step ${i}`);
    yield;
  }
  return sum;
}

describe('pausable work', () => {
  it('gives the same result run in one go or in slices', async () => {
    expect(runSteps(countTo(100, []))).toBe(5050);
    await expect(runInSlices(countTo(100, []))).resolves.toBe(5050);
  });

  it('lets other callbacks run between slices', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('other work'));
    // A zero-length slice hands the loop back at every pause.
    await runInSlices(countTo(3, log), 0);
    expect(log).toEqual(['step 1', 'other work', 'step 2', 'step 3']);
  });

  it('passes on an error thrown by the work', async () => {
    function* failing(): Steps<void> {
      yield;
      throw new RangeError('bad corpus');
    }
    await expect(runInSlices(failing(), 0)).rejects.toThrow('bad corpus');
  });
});
