import { readFile } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { letOthersThrough } from './event-loop';

/** Work that ends inside an I/O callback (the poll phase), then yields with `yieldTo`. */
function afterIo(yieldTo: () => Promise<unknown>): Promise<string[]> {
  return new Promise((resolve) => readFile(import.meta.filename, () => resolve(work(yieldTo))));
}

async function work(yieldTo: () => Promise<unknown>): Promise<string[]> {
  const order: string[] = [];
  setTimeout(() => order.push('a timer due meanwhile'), 0);
  // The timer is due (its 1 ms has passed) before the work yields.
  const started = performance.now();
  while (performance.now() - started < 3);
  await yieldTo();
  order.push('the work goes on');
  // Whatever was still to come has come.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return order;
}

describe('letOthersThrough', () => {
  it('passes a whole turn of the event loop before the work goes on, even from the poll phase', async () => {
    expect(await afterIo(letOthersThrough)).toEqual(['a timer due meanwhile', 'the work goes on']);
  });

  it('is needed: one setImmediate from the poll phase goes on before the next turn', async () => {
    expect(await afterIo(() => setImmediate())).toEqual(['the work goes on', 'a timer due meanwhile']);
  });
});
