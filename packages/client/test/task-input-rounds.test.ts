// The 2025-11-25 task input count: which requests count, when they are refused, and that the memory stays bounded.
import { ErrorReply } from '@mcpc/jsonrpc';
import { describe, expect, it } from 'vitest';
import { RELATED_TASK, TaskInputRounds } from '../src/tasks/input-rounds.js';

const about = (taskId: unknown) => ({ _meta: { [RELATED_TASK]: { taskId } } });

describe('TaskInputRounds', () => {
  it('counts only requests naming a watched task; the one past the limit is refused and ends the wait once', () => {
    const rounds = new TaskInputRounds();
    let ended = 0;
    rounds.watch('t1', 2, () => ended++);
    for (const params of [undefined, {}, { _meta: null }, about(7), about('other'), about('t1'), about('t1')])
      expect(() => rounds.admit(params)).not.toThrow();
    expect(() => rounds.admit(about('t1'))).toThrow(ErrorReply);
    expect(ended).toBe(1);
  });

  it('a refused task stays refused after its wait, until a new wait gives it a fresh count', () => {
    const rounds = new TaskInputRounds();
    const stop = rounds.watch('t1', 1, () => undefined);
    rounds.admit(about('t1'));
    expect(() => rounds.admit(about('t1'))).toThrow(/more often than a wait allows/);
    stop();
    expect(() => rounds.admit(about('t1'))).toThrow(ErrorReply);
    rounds.watch('t1', 1, () => undefined);
    expect(() => rounds.admit(about('t1'))).not.toThrow();
  });

  it('a stopped wait that was never exceeded lets its task through uncounted', () => {
    const rounds = new TaskInputRounds();
    const stop = rounds.watch('t1', 1, () => undefined);
    stop();
    for (let i = 0; i < 5; i++) expect(() => rounds.admit(about('t1'))).not.toThrow();
  });

  it('remembers at most 256 refused tasks, forgetting the oldest', () => {
    const rounds = new TaskInputRounds();
    for (let i = 0; i < 300; i++) {
      const stop = rounds.watch(`t${i}`, 0, () => undefined);
      expect(() => rounds.admit(about(`t${i}`))).toThrow(ErrorReply);
      stop();
    }
    expect(() => rounds.admit(about('t0'))).not.toThrow();
    expect(() => rounds.admit(about('t299'))).toThrow(ErrorReply);
    expect(() => rounds.admit(about('t44'))).toThrow(ErrorReply);
  });
});
