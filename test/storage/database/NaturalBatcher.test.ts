import { describe, expect, it } from 'vitest';
import { NaturalBatcher } from '../../../src/storage/database/NaturalBatcher.js';

/** A batcher whose statements the test lets finish one at a time, recording each batch. */
function controlledBatcher(options: ConstructorParameters<typeof NaturalBatcher<string, string>>[1] = {}) {
  const batches: string[][] = [];
  const releases: Array<(fail?: Error) => void> = [];
  const batcher = new NaturalBatcher<string, string>(
    (inputs) =>
      new Promise((resolve, reject) => {
        batches.push([...inputs]);
        releases.push((fail) => (fail ? reject(fail) : resolve(inputs.map((input) => `${input}!`))));
      }),
    options,
  );
  const releaseNext = async (fail?: Error) => {
    releases.shift()!(fail);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batcher, batches, releaseNext };
}

describe('NaturalBatcher', () => {
  it('runs a lone call at once, as a batch of one', async () => {
    const { batcher, batches, releaseNext } = controlledBatcher();
    const answer = batcher.run('a');
    expect(batches).toEqual([['a']]);
    await releaseNext();
    expect(await answer).toBe('a!');
  });

  it('sends the calls made while a statement is in flight together in the next one, each getting its own answer', async () => {
    const { batcher, batches, releaseNext } = controlledBatcher();
    const first = batcher.run('a');
    const waiting = ['b', 'c', 'd'].map((input) => batcher.run(input));
    expect(batches).toEqual([['a']]);
    await releaseNext();
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
    await releaseNext();
    expect(await first).toBe('a!');
    expect(await Promise.all(waiting)).toEqual(['b!', 'c!', 'd!']);
  });

  it('puts at most maxBatch inputs in one statement', async () => {
    const { batcher, batches, releaseNext } = controlledBatcher({ maxBatch: 2 });
    const answers = ['a', 'b', 'c', 'd'].map((input) => batcher.run(input));
    await releaseNext();
    await releaseNext();
    await releaseNext();
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(await Promise.all(answers)).toEqual(['a!', 'b!', 'c!', 'd!']);
  });

  it('never puts two inputs with the same key in one statement, and keeps same-key calls in call order', async () => {
    const { batcher, batches, releaseNext } = controlledBatcher({ keyOf: (input) => input[0]! });
    const answers = ['x0', 'x1', 'y1', 'x2', 'z1'].map((input) => batcher.run(input));
    await releaseNext();
    await releaseNext();
    await releaseNext();
    expect(batches).toEqual([['x0'], ['x1', 'y1', 'z1'], ['x2']]);
    expect(await Promise.all(answers)).toEqual(['x0!', 'x1!', 'y1!', 'x2!', 'z1!']);
  });

  it('fails a lone call whose statement fails, and goes on with the calls after it', async () => {
    const { batcher, releaseNext } = controlledBatcher();
    const failing = batcher.run('a').catch((error: Error) => error.message);
    const later = batcher.run('b');
    await releaseNext(new Error('connection lost'));
    await releaseNext();
    expect(await failing).toBe('connection lost');
    expect(await later).toBe('b!');
  });

  it('runs each input of a failed batch again on its own, so an error stays with the input that caused it', async () => {
    const batches: string[][] = [];
    const batcher = new NaturalBatcher<string, string>((inputs) => {
      batches.push([...inputs]);
      if (inputs.includes('bad')) return Promise.reject(new Error(`bad input in ${inputs.join(',')}`));
      return Promise.resolve(inputs.map((input) => `${input}!`));
    });
    const answers = ['a', 'b', 'bad', 'c'].map((input) => batcher.run(input).catch((error: Error) => error.message));

    expect(await Promise.all(answers)).toEqual(['a!', 'b!', 'bad input in bad', 'c!']);
    expect(batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });
});
