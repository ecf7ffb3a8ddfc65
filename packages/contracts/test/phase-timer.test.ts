import { startPhaseTimer } from '../src';

describe('startPhaseTimer', () => {
  it('books the time since the previous mark (or the start) to each phase as it is marked', () => {
    let now = 1_000;
    const booked: Array<[string, number]> = [];
    const timer = startPhaseTimer(
      (phase, ms) => booked.push([phase, ms]),
      () => now,
    );
    now += 20;
    timer.mark('context');
    now += 110;
    timer.mark('page');
    timer.mark('setup');
    now += 5;
    timer.mark('page');
    expect(booked).toEqual([
      ['context', 20],
      ['page', 110],
      ['setup', 0],
      ['page', 5],
    ]);
  });
});
